# The test tessel_api_clients (Note [Clients of the public API] in repl/CMakeLists.txt): no
# file of repl/ or kernel/ includes a header of the layers below the public API. Quoted
# includes must name repl/ or kernel/; an include in angle brackets must not start with another
# folder of the project (interp/, shapes/, backends/, ...; include/ is the public one). Run as
# `cmake -DROOT=<source dir> -P CheckApiClients.cmake`.
file(GLOB_RECURSE sources LIST_DIRECTORIES false
     ${ROOT}/repl/*.h ${ROOT}/repl/*.cpp ${ROOT}/kernel/*.h ${ROOT}/kernel/*.cpp)
file(GLOB entries LIST_DIRECTORIES true RELATIVE ${ROOT} ${ROOT}/*)
set(internal "")
foreach(entry ${entries})
  if(IS_DIRECTORY ${ROOT}/${entry} AND NOT entry MATCHES "^(include|repl|kernel)$"
     AND NOT entry MATCHES "^(\\.|build)")
    list(APPEND internal ${entry})
  endif()
endforeach()
list(JOIN internal "|" internal)
set(bad "")
foreach(file ${sources})
  file(STRINGS ${file} lines REGEX "^[ \t]*#[ \t]*include")
  foreach(line ${lines})
    if(line MATCHES "#[ \t]*include[ \t]*\"([^\"]*)\"")
      if(NOT CMAKE_MATCH_1 MATCHES "^(repl|kernel)/")
        list(APPEND bad "${file}: ${line}")
      endif()
    elseif(line MATCHES "#[ \t]*include[ \t]*<(${internal})/")
      list(APPEND bad "${file}: ${line}")
    endif()
  endforeach()
endforeach()
if(bad)
  list(JOIN bad "\n  " text)
  message(FATAL_ERROR "repl/ and kernel/ use the public API alone (<tessel/tessel.h>); these "
                      "include internal headers:\n  ${text}")
endif()
list(LENGTH sources count)
message(STATUS "repl/ and kernel/: ${count} files, every include public or their own")

