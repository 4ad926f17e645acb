# Cross-compiling sparkcheck for aarch64 (DGX Spark) with Debian's g++-aarch64-linux-gnu.
# The arm64 libraries come from scripts/arm64-deps.sh, unpacked under
# SPARKCHECK_ARM64_ROOT (default: build-arm64-root/ in the source tree); ctest runs the
# aarch64 test binaries through qemu-aarch64-static (no binfmt_misc needed).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

if(NOT SPARKCHECK_ARM64_ROOT)
  if(DEFINED ENV{SPARKCHECK_ARM64_ROOT})
    set(SPARKCHECK_ARM64_ROOT "$ENV{SPARKCHECK_ARM64_ROOT}")
  else()
    get_filename_component(SPARKCHECK_ARM64_ROOT "${CMAKE_CURRENT_LIST_DIR}/../build-arm64-root" ABSOLUTE)
  endif()
endif()
set(SPARKCHECK_ARM64_ROOT "${SPARKCHECK_ARM64_ROOT}" CACHE PATH "Where scripts/arm64-deps.sh unpacked the arm64 libraries")
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES SPARKCHECK_ARM64_ROOT)

set(CMAKE_FIND_ROOT_PATH "${SPARKCHECK_ARM64_ROOT}" /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)   # build tools (git, npm, pkg-config) are the host's
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(CMAKE_C_STANDARD_INCLUDE_DIRECTORIES "${SPARKCHECK_ARM64_ROOT}/usr/include")
set(CMAKE_CXX_STANDARD_INCLUDE_DIRECTORIES "${SPARKCHECK_ARM64_ROOT}/usr/include")

# pkg-config reads the arm64 .pc files only, re-rooted into the unpacked tree.
set(ENV{PKG_CONFIG_LIBDIR} "${SPARKCHECK_ARM64_ROOT}/usr/lib/aarch64-linux-gnu/pkgconfig:${SPARKCHECK_ARM64_ROOT}/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_SYSROOT_DIR} "${SPARKCHECK_ARM64_ROOT}")

find_program(SC_QEMU_AARCH64 NAMES qemu-aarch64-static qemu-aarch64)
if(SC_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR "${SC_QEMU_AARCH64};-L;/usr/aarch64-linux-gnu")
endif()
