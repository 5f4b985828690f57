# `cmake --install build --prefix P` (docs/embedding.md, "Installing and linking"):
#   include/tessel/*.h                 the public header(s)
#   lib/libtessel.a or .so             the one library an app links (Note [One libtessel])
#   lib/cmake/Tessel/                  find_package(Tessel): the imported target Tessel::tessel
#   lib/pkgconfig/tessel.pc            pkg-config tessel
#   bin/tessel                         the command
#   share/tessel/stdlib/*.dsl          the stdlib's source (the library embeds it: nothing to set)
# (lib/ is GNUInstallDirs' LIBDIR: lib/x86_64-linux-gnu under /usr on Debian.)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
get_property(package_target GLOBAL PROPERTY TESSEL_PACKAGE_TARGET)
get_property(third_party GLOBAL PROPERTY TESSEL_PACKAGE_THIRD_PARTY)
set(TESSEL_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/Tessel)
set(TESSEL_STDLIB_INSTALL_DIR ${CMAKE_INSTALL_DATADIR}/tessel/stdlib)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/tessel
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
install(TARGETS ${package_target} EXPORT TesselTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(EXPORT TesselTargets NAMESPACE Tessel:: DESTINATION ${TESSEL_CMAKE_DIR})
if(TARGET tessel)
  if(BUILD_SHARED_LIBS)  # where the command finds libtessel.so if it links it
    set_target_properties(tessel PROPERTIES INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
  endif()
  install(TARGETS tessel RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/stdlib/ DESTINATION ${TESSEL_STDLIB_INSTALL_DIR}
        FILES_MATCHING PATTERN "*.dsl")

# The third-party libraries a static libtessel brings along (with a shared one they are the
# library's own business; pkg-config --static still lists them).
tessel_package_export_deps("${third_party}" deps TESSEL_CONFIG_PACKAGES pc_deps)
if(BUILD_SHARED_LIBS)
  set(TESSEL_CONFIG_PACKAGES "")
  set(TESSEL_CONFIG_LIBRARIES "")
  set(TESSEL_PC_LIBS "")
  list(JOIN pc_deps " " TESSEL_PC_LIBS_PRIVATE)
else()
  # Named and by-path libraries are checked by TesselConfig.cmake (imported targets are
  # checked by find_dependency), so a missing one fails find_package, not the app's link.
  set(TESSEL_CONFIG_LIBRARIES)
  foreach(item IN LISTS deps)
    if(NOT item MATCHES "^-" AND NOT item MATCHES "::")
      list(APPEND TESSEL_CONFIG_LIBRARIES ${item})
    endif()
  endforeach()
  list(JOIN pc_deps " " TESSEL_PC_LIBS)
  set(TESSEL_PC_LIBS " ${TESSEL_PC_LIBS}")
  set(TESSEL_PC_LIBS_PRIVATE "")
endif()

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/TesselConfig.cmake.in
  ${PROJECT_BINARY_DIR}/package/TesselConfig.cmake
  INSTALL_DESTINATION ${TESSEL_CMAKE_DIR}
  PATH_VARS TESSEL_STDLIB_INSTALL_DIR CMAKE_INSTALL_INCLUDEDIR)
# 0.x: a new minor version may change the API.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/package/TesselConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/package/TesselConfig.cmake
              ${PROJECT_BINARY_DIR}/package/TesselConfigVersion.cmake
        DESTINATION ${TESSEL_CMAKE_DIR})

# tessel.pc finds the prefix from its own place (${pcfiledir}), so any --prefix works.
string(REGEX REPLACE "[^/]+" ".." TESSEL_PC_TO_PREFIX "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
configure_file(${PROJECT_SOURCE_DIR}/cmake/tessel.pc.in ${PROJECT_BINARY_DIR}/package/tessel.pc
               @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/package/tessel.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
