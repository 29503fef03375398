file(REMOVE_RECURSE
  "CMakeFiles/sinew_tests.dir/tests/test_clip.c.o"
  "CMakeFiles/sinew_tests.dir/tests/test_clip.c.o.d"
  "CMakeFiles/sinew_tests.dir/tests/test_core.c.o"
  "CMakeFiles/sinew_tests.dir/tests/test_core.c.o.d"
  "CMakeFiles/sinew_tests.dir/tests/test_main.c.o"
  "CMakeFiles/sinew_tests.dir/tests/test_main.c.o.d"
  "CMakeFiles/sinew_tests.dir/tests/test_util.c.o"
  "CMakeFiles/sinew_tests.dir/tests/test_util.c.o.d"
  "sinew_tests"
  "sinew_tests.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/sinew_tests.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
