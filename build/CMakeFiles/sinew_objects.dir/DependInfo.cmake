
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/src/clip/clip.c" "CMakeFiles/sinew_objects.dir/src/clip/clip.c.o" "gcc" "CMakeFiles/sinew_objects.dir/src/clip/clip.c.o.d"
  "/work/main/src/clip/clip_validate.c" "CMakeFiles/sinew_objects.dir/src/clip/clip_validate.c.o" "gcc" "CMakeFiles/sinew_objects.dir/src/clip/clip_validate.c.o.d"
  "/work/main/src/core/alloc.c" "CMakeFiles/sinew_objects.dir/src/core/alloc.c.o" "gcc" "CMakeFiles/sinew_objects.dir/src/core/alloc.c.o.d"
  "/work/main/src/core/error.c" "CMakeFiles/sinew_objects.dir/src/core/error.c.o" "gcc" "CMakeFiles/sinew_objects.dir/src/core/error.c.o.d"
  "/work/main/src/core/error_metric.c" "CMakeFiles/sinew_objects.dir/src/core/error_metric.c.o" "gcc" "CMakeFiles/sinew_objects.dir/src/core/error_metric.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
