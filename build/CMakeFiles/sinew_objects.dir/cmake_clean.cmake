file(REMOVE_RECURSE
  "CMakeFiles/sinew_objects.dir/src/clip/clip.c.o"
  "CMakeFiles/sinew_objects.dir/src/clip/clip.c.o.d"
  "CMakeFiles/sinew_objects.dir/src/clip/clip_validate.c.o"
  "CMakeFiles/sinew_objects.dir/src/clip/clip_validate.c.o.d"
  "CMakeFiles/sinew_objects.dir/src/core/alloc.c.o"
  "CMakeFiles/sinew_objects.dir/src/core/alloc.c.o.d"
  "CMakeFiles/sinew_objects.dir/src/core/error.c.o"
  "CMakeFiles/sinew_objects.dir/src/core/error.c.o.d"
  "CMakeFiles/sinew_objects.dir/src/core/error_metric.c.o"
  "CMakeFiles/sinew_objects.dir/src/core/error_metric.c.o.d"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/sinew_objects.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
