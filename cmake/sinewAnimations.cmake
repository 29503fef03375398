# sinew_add_animations(<target> FILES <file>... [OUTPUT_DIR <dir>] [OPTIONS <sinew compress options>...])
#
# Compression as an incremental build step: one `sinew compress` per animation file (.gltf .glb .bvh
# .amc .acl.sjson, and FBX, COLLADA, .x, ... with assimp), rerun only when that file (or the sinew CLI)
# changes, into OUTPUT_DIR (default ${CMAKE_CURRENT_BINARY_DIR}/animations) as the file's name with its
# extension replaced by .sinew (.acl.sjson counts as one: walk.bvh, walk.acl.sjson and Walk.X give walk.sinew,
# walk.sinew and Walk.sinew; two files that would write the same blob are an error, as in `sinew compress
# IN... -o OUTDIR`). <target> builds them all (part of ALL);
# its SINEW_OUTPUTS property lists the blobs. Needs the CLI target sinew::cli (installed package, or
# add_subdirectory with SINEW_BUILD_CLI=ON).
function(sinew_add_animations target)
  cmake_parse_arguments(ARG "" "OUTPUT_DIR" "FILES;OPTIONS" ${ARGN})
  if(NOT TARGET sinew::cli)
    message(FATAL_ERROR "sinew_add_animations: the sinew CLI (sinew::cli) is not available")
  endif()
  if(NOT ARG_OUTPUT_DIR)
    set(ARG_OUTPUT_DIR ${CMAKE_CURRENT_BINARY_DIR}/animations)
  endif()
  set(outputs "")
  foreach(file IN LISTS ARG_FILES)
    get_filename_component(input ${file} ABSOLUTE)
    get_filename_component(name ${file} NAME)
    string(TOLOWER "${name}" lower)
    if(lower MATCHES "\\.acl\\.sjson$")
      string(REGEX REPLACE "\\.[^.]*\\.[^.]*$" "" stem "${name}")
    else()
      string(REGEX REPLACE "\\.[^.]*$" "" stem "${name}")
    endif()
    set(output ${ARG_OUTPUT_DIR}/${stem}.sinew)
    if(output IN_LIST outputs)
      message(FATAL_ERROR "sinew_add_animations: ${file} and another input would both write ${output}")
    endif()
    add_custom_command(OUTPUT ${output}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${ARG_OUTPUT_DIR}
      COMMAND sinew::cli compress ${input} -o ${output} -q ${ARG_OPTIONS}
      DEPENDS ${input} $<TARGET_FILE:sinew::cli>
      COMMENT "sinew: compressing ${name}" VERBATIM)
    list(APPEND outputs ${output})
  endforeach()
  add_custom_target(${target} ALL DEPENDS ${outputs})
  set_property(TARGET ${target} PROPERTY SINEW_OUTPUTS ${outputs})
endfunction()
