file(REMOVE_RECURSE
  "libsinew.pdb"
  "libsinew.so"
  "libsinew.so.0"
  "libsinew.so.0.1.0"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/sinew_shared.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
