file(REMOVE_RECURSE
  "libsinew.a"
  "libsinew.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/sinew_static.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
