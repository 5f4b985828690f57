# The test interp_layers (interp/README.md, "Layers"): no file of an interp/ layer includes a
# header of a layer above it. LAYERS is the order, lowest first: a folder of interp/, or
# `interpreter` for interp/interpreter.{h,cpp}. Includes still waiting for their fix are listed
# in KNOWN (interp/upward_includes.txt), one "file -> header" a line; an upward include not
# listed fails, and so does a listed one that is gone, so the list only shrinks. Run as
# `cmake -DROOT=<source dir> "-DLAYERS=a|b|..." -DKNOWN=<file> -P CheckInterpLayers.cmake`.
cmake_policy(VERSION 3.20)  # if(IN_LIST)
string(REPLACE "|" ";" LAYERS "${LAYERS}")
file(STRINGS ${KNOWN} KNOWN REGEX "^[^#].* -> ")

# The layer of a path under interp/ ("interp/values/value.h" -> values), or "" if none.
function(layer_of path out)
  set(layer "")
  if(path MATCHES "^interp/interpreter\\.(h|cpp)$")
    set(layer interpreter)
  elseif(path MATCHES "^interp/([a-z_]+)/")
    set(layer ${CMAKE_MATCH_1})
  endif()
  set(${out} ${layer} PARENT_SCOPE)
endfunction()

file(GLOB_RECURSE sources LIST_DIRECTORIES false RELATIVE ${ROOT}
     ${ROOT}/interp/*.h ${ROOT}/interp/*.cpp)
set(upward "")
foreach(file ${sources})
  layer_of(${file} from)
  list(FIND LAYERS "${from}" fromRank)
  if(fromRank EQUAL -1)
    message(FATAL_ERROR "${file}: interp/${from} has no place in the layer order (LAYERS in "
                        "interp/CMakeLists.txt); add it there and to interp/README.md")
  endif()
  file(STRINGS ${ROOT}/${file} lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"interp/")
  foreach(line ${lines})
    string(REGEX MATCH "\"(interp/[^\"]*)\"" _ "${line}")
    set(header ${CMAKE_MATCH_1})
    layer_of(${header} to)
    list(FIND LAYERS "${to}" toRank)
    if(toRank GREATER fromRank)
      list(APPEND upward "${file} -> ${header}")
    endif()
  endforeach()
endforeach()

set(bad "")
foreach(edge ${upward})
  if(NOT edge IN_LIST KNOWN)
    list(APPEND bad "${edge}")
  endif()
endforeach()
set(stale "")
foreach(edge ${KNOWN})
  if(NOT edge IN_LIST upward)
    list(APPEND stale "${edge}")
  endif()
endforeach()
if(bad OR stale)
  set(text "")
  if(bad)
    list(JOIN bad "\n  " b)
    string(APPEND text "includes of a higher layer (order, lowest first: ${LAYERS}); move what "
                       "they use down, or invert the call with a hook:\n  ${b}\n")
  endif()
  if(stale)
    list(JOIN stale "\n  " s)
    string(APPEND text "fixed, so drop them from interp/upward_includes.txt:\n  "
                       "${s}\n")
  endif()
  message(FATAL_ERROR "${text}")
endif()
list(LENGTH sources count)
list(LENGTH KNOWN known)
message(STATUS "interp/: ${count} files, no new upward include (${known} known, still to fix)")
