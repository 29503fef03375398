
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/tests/test_clip.c" "CMakeFiles/sinew_tests.dir/tests/test_clip.c.o" "gcc" "CMakeFiles/sinew_tests.dir/tests/test_clip.c.o.d"
  "/work/main/tests/test_core.c" "CMakeFiles/sinew_tests.dir/tests/test_core.c.o" "gcc" "CMakeFiles/sinew_tests.dir/tests/test_core.c.o.d"
  "/work/main/tests/test_main.c" "CMakeFiles/sinew_tests.dir/tests/test_main.c.o" "gcc" "CMakeFiles/sinew_tests.dir/tests/test_main.c.o.d"
  "/work/main/tests/test_util.c" "CMakeFiles/sinew_tests.dir/tests/test_util.c.o" "gcc" "CMakeFiles/sinew_tests.dir/tests/test_util.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
