# UmbraVerilate.cmake: the one way this build Verilates RTL, and the one way it learns
# a configuration's RTL parameters.  Included once from the top CMakeLists.txt.
#
# Verilator fixes a design's parameters when it verilates, and verilate() runs
# Verilator at configure time, so the parameters must be known before the main build
# exists.  They come from the configuration loader and the key -> parameter table
# (isa/include/umbra/rtl_params.h) through umbra-config, which is therefore built
# here, at configure time, as a small project of its own (cmake/config-tool) in
# <build>/umbra-config-tool; no CMake code reads the YAML.  Editing the loader, the
# table or umbra-config, or a configuration file a target was verilated for, re-runs
# the configure step.
#
#   umbra_rtl_params(OUT CONFIG yaml TOP module)
#       OUT = module's parameters for the configuration, a list of NAME=VALUE.
#   umbra_config_setting(OUT CONFIG yaml KEY key)
#       OUT = one of the configuration's settings as umbra-config prints it.
#   umbra_verilate(target TOP module SOURCES file...
#                  [CONFIG yaml] [PARAMS NAME=VALUE...] [PARAMS_VAR var]
#                  [PREFIX Vname] [INCLUDE_DIRS dir...] [TRACE | TRACE_FST])
#       Verilates `module` into `target`, a plain C++ model (every bench steps its
#       model from its own loop, not under the SystemC kernel), with the
#       configuration's parameters (when CONFIG is given) and PARAMS (which add to
#       them, or replace one of the same name: test points and bench-only settings),
#       optimised (-O2), and never sanitized.  The generated code gets no debug
#       information and its run-once (Slow) files -O1: at RelWithDebInfo's -O2 -g
#       those two were more than half of a model's compile time (the ULX3S system's
#       33 files: 275 s of one CPU, 108 s without), and nobody steps through
#       Verilator's output in a debugger.  PARAMS_VAR receives the final
#       NAME=VALUE list, and var_NAME each value, for the bench's compile definitions.
#       PREFIX defaults to V<module>.  The Verilator runtime is umbra_verilated_runtime,
#       one library for every model; it is third-party code: its headers are system
#       headers and its sources get -w, so the project's -Wall -Wextra reports only ours.
#
# A relative CONFIG is taken from the source root.
include_guard(GLOBAL)

find_package(verilator HINTS $ENV{VERILATOR_ROOT} ${VERILATOR_ROOT})

# The files whose change can change a printed parameter: re-run the configure step.
set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${PROJECT_SOURCE_DIR}/isa/config_keys.yaml
             ${PROJECT_SOURCE_DIR}/isa/src/config.cpp ${PROJECT_SOURCE_DIR}/isa/include/umbra/config.h
             ${PROJECT_SOURCE_DIR}/isa/src/rtl_params.cpp ${PROJECT_SOURCE_DIR}/isa/include/umbra/rtl_params.h
             ${PROJECT_SOURCE_DIR}/tools/umbra_config.cpp ${PROJECT_SOURCE_DIR}/cmake/config-tool/CMakeLists.txt)

# Builds (or brings up to date) umbra-config in <build>/umbra-config-tool with this
# build's compiler, launcher and generator, and sets UMBRA_CONFIG_TOOL to it.
function(_umbra_build_config_tool)
  # A scratch configuration for the target graph borrows its build's (architecture_graph.sh).
  if(UMBRA_TARGET_GRAPH_ONLY AND UMBRA_PREBUILT_CONFIG_TOOL)
    set(UMBRA_CONFIG_TOOL ${UMBRA_PREBUILT_CONFIG_TOOL} PARENT_SCOPE)
    return()
  endif()
  set(dir ${CMAKE_BINARY_DIR}/umbra-config-tool)
  if(NOT EXISTS ${dir}/CMakeCache.txt)
    set(args -G ${CMAKE_GENERATOR} -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER})
    if(CMAKE_MAKE_PROGRAM)
      list(APPEND args -DCMAKE_MAKE_PROGRAM=${CMAKE_MAKE_PROGRAM})
    endif()
    if(CMAKE_CXX_COMPILER_LAUNCHER)
      list(APPEND args -DCMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER})
    endif()
    message(STATUS "Building umbra-config for the configure step in ${dir}")
    execute_process(COMMAND ${CMAKE_COMMAND} -S ${PROJECT_SOURCE_DIR}/cmake/config-tool -B ${dir} ${args}
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
    if(rc)
      message(FATAL_ERROR "configuring umbra-config in ${dir} failed:\n${out}")
    endif()
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${dir} --target umbra-config --config Release
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(rc)
    message(FATAL_ERROR "building umbra-config in ${dir} failed:\n${out}")
  endif()
  # Single-configuration generators put it in the top, multi-configuration ones in Release/.
  foreach(tool ${dir}/umbra-config ${dir}/Release/umbra-config)
    if(EXISTS ${tool})
      set(UMBRA_CONFIG_TOOL ${tool} PARENT_SCOPE)
      return()
    endif()
  endforeach()
  message(FATAL_ERROR "umbra-config was built in ${dir} but is not there")
endfunction()
_umbra_build_config_tool()

function(umbra_rtl_params out)
  cmake_parse_arguments(P "" "CONFIG;TOP" "" ${ARGN})
  if(NOT P_CONFIG OR NOT P_TOP OR P_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "umbra_rtl_params(${out} CONFIG yaml TOP module): got '${ARGN}'")
  endif()
  get_filename_component(config ${P_CONFIG} ABSOLUTE BASE_DIR ${PROJECT_SOURCE_DIR})
  execute_process(COMMAND ${UMBRA_CONFIG_TOOL} --top ${P_TOP} --format cmake ${config}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE params ERROR_VARIABLE err
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(rc)
    message(FATAL_ERROR "the RTL parameters of ${P_TOP} for ${config}:\n${err}")
  endif()
  set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${config})
  set(${out} ${params} PARENT_SCOPE)
endfunction()

# OUT = the setting KEY of configuration CONFIG as umbra-config prints it (KEY=VALUE
# lines; memory.model, say).
function(umbra_config_setting out)
  cmake_parse_arguments(P "" "CONFIG;KEY" "" ${ARGN})
  get_filename_component(config ${P_CONFIG} ABSOLUTE BASE_DIR ${PROJECT_SOURCE_DIR})
  execute_process(COMMAND ${UMBRA_CONFIG_TOOL} ${config} RESULT_VARIABLE rc OUTPUT_VARIABLE lines ERROR_VARIABLE err)
  if(rc)
    message(FATAL_ERROR "the settings of ${config}:\n${err}")
  endif()
  string(REGEX MATCH "(^|\n)${P_KEY}=([^\n]*)" found "${lines}")
  if(NOT found)
    message(FATAL_ERROR "umbra-config prints no ${P_KEY} for ${config}")
  endif()
  set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${config})
  set(${out} "${CMAKE_MATCH_2}" PARENT_SCOPE)
endfunction()

function(umbra_verilate target)
  cmake_parse_arguments(V "TRACE;TRACE_FST" "TOP;PREFIX;CONFIG;PARAMS_VAR"
                        "SOURCES;INCLUDE_DIRS;PARAMS" ${ARGN})
  if(NOT V_TOP OR NOT V_SOURCES OR V_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "umbra_verilate(${target} TOP module SOURCES file... ...): got '${ARGN}'")
  endif()
  if(NOT verilator_FOUND)
    message(FATAL_ERROR "umbra_verilate(${target}): Verilator not found (install verilator or set VERILATOR_ROOT)")
  endif()
  if(NOT V_PREFIX)
    set(V_PREFIX V${V_TOP})
  endif()

  set(params)
  if(V_CONFIG)
    umbra_rtl_params(params CONFIG ${V_CONFIG} TOP ${V_TOP})
  endif()
  # PARAMS replace a parameter of the same name in place, or are added at the end.
  foreach(p IN LISTS V_PARAMS)
    if(NOT p MATCHES "^([A-Za-z_][A-Za-z0-9_]*)=(.+)$")
      message(FATAL_ERROR "umbra_verilate(${target}): PARAMS '${p}' is not NAME=VALUE")
    endif()
    set(name ${CMAKE_MATCH_1})
    set(at -1)
    set(i 0)
    foreach(q IN LISTS params)
      if(q MATCHES "^${name}=")
        set(at ${i})
      endif()
      math(EXPR i "${i} + 1")
    endforeach()
    if(at EQUAL -1)
      list(APPEND params ${p})
    else()
      list(REMOVE_AT params ${at})
      list(INSERT params ${at} ${p})
    endif()
  endforeach()

  set(gargs)
  foreach(p IN LISTS params)
    list(APPEND gargs -G${p})
    if(V_PARAMS_VAR AND p MATCHES "^([^=]+)=(.*)$")
      set(${V_PARAMS_VAR}_${CMAKE_MATCH_1} ${CMAKE_MATCH_2} PARENT_SCOPE)
    endif()
  endforeach()
  if(V_PARAMS_VAR)
    set(${V_PARAMS_VAR} ${params} PARENT_SCOPE)
  endif()
  string(REPLACE ";" " " shown "${gargs}")
  if(V_CONFIG)
    message(STATUS "${target}: ${V_TOP} verilated for ${V_CONFIG}: ${shown}")
  else()
    message(STATUS "${target}: ${V_TOP} verilated with ${shown}")
  endif()

  # A configuration made only for its target graph (scripts/architecture_graph.sh) has
  # every target and link but runs no Verilator: that is most of a configure step.  So
  # has the fuzzing build (scripts/fuzz.sh), which builds only its fuzzers, none of
  # them a model.
  if(UMBRA_TARGET_GRAPH_ONLY OR UMBRA_FUZZ)
    target_link_libraries(${target} PUBLIC umbra_verilated_runtime)
    return()
  endif()
  set(flags)
  foreach(f TRACE TRACE_FST)
    if(V_${f})
      list(APPEND flags ${f})
    endif()
  endforeach()
  verilate(${target} ${flags}
    SOURCES ${V_SOURCES}
    TOP_MODULE ${V_TOP}
    PREFIX ${V_PREFIX}
    INCLUDE_DIRS ${V_INCLUDE_DIRS}
    VERILATOR_ARGS ${gargs}
    OPT_FAST -O2 -g0 ${UMBRA_NO_SANITIZE}
    OPT_SLOW -O1 -g0 ${UMBRA_NO_SANITIZE}
    OPT_GLOBAL -g0 ${UMBRA_NO_SANITIZE})
  target_include_directories(${target} SYSTEM PRIVATE ${VERILATOR_ROOT}/include ${VERILATOR_ROOT}/include/vltstd)
  # verilate() adds the runtime's sources to every target; they come from
  # umbra_verilated_runtime instead, compiled once.
  get_target_property(sources ${target} SOURCES)
  list(FILTER sources EXCLUDE REGEX "/include/verilated(_threads|_vcd_c)?\\.cpp$")
  set_property(TARGET ${target} PROPERTY SOURCES ${sources})
  target_link_libraries(${target} PUBLIC umbra_verilated_runtime)
  # The generated files read verilated.h precompiled (umbra_verilated_pch below).
  if(TARGET umbra_verilated_pch0)
    set(trace 0)
    if(V_TRACE OR V_TRACE_FST)
      set(trace 1)
    endif()
    list(FILTER sources INCLUDE REGEX "/${V_PREFIX}\\.dir/[^/]*\\.cpp$")
    set_property(SOURCE ${sources} APPEND PROPERTY COMPILE_OPTIONS
                 -include ${UMBRA_VERILATED_PCH_DIR}/trace${trace}/verilated.h -Winvalid-pch)
    set_property(SOURCE ${sources} APPEND PROPERTY OBJECT_DEPENDS
                 ${UMBRA_VERILATED_PCH_DIR}/trace${trace}/verilated.h.gch)
    add_dependencies(${target} umbra_verilated_pch${trace})
  endif()
endfunction()

# Verilator's runtime (verilated.cpp, its threads and its VCD writer), compiled once for
# every model of the build rather than once a model: with some twenty models it was a
# tenth of a fresh build.  What differs between models (VM_TRACE and the like) is in
# their own generated code, not in these files.  Third-party code: -w, never sanitized.
if(verilator_FOUND AND NOT TARGET umbra_verilated_runtime)
  find_package(Threads REQUIRED)
  add_library(umbra_verilated_runtime STATIC ${VERILATOR_ROOT}/include/verilated.cpp
              ${VERILATOR_ROOT}/include/verilated_threads.cpp ${VERILATOR_ROOT}/include/verilated_vcd_c.cpp)
  target_include_directories(umbra_verilated_runtime SYSTEM PUBLIC ${VERILATOR_ROOT}/include
                             ${VERILATOR_ROOT}/include/vltstd)
  target_compile_options(umbra_verilated_runtime PRIVATE -w ${UMBRA_NO_SANITIZE})
  target_compile_features(umbra_verilated_runtime PUBLIC cxx_std_17)
  target_link_libraries(umbra_verilated_runtime PUBLIC Threads::Threads)
endif()

# verilated.h precompiled, once for the build rather than once a generated file: the
# build's 550-odd generated files each spent about a second of their compile reading
# it (one model of 11 files: 30 s of CPU, 19 s with the header precompiled).  GCC takes
# a precompiled header only when the macros it looked at are defined alike, and
# verilated.h looks at VM_TRACE, so there are two, traced models' and the others'.
# Each is compiled with the flags the generated files get (the build type's, the
# project's options, -O2 -g0); a compile whose flags it does not fit reads the text
# instead (-Winvalid-pch says so): slower, never different.  GCC and one-configuration
# generators only.
set(UMBRA_VERILATED_PCH_DIR ${CMAKE_BINARY_DIR}/verilated_pch)
if(verilator_FOUND AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND NOT CMAKE_CONFIGURATION_TYPES
   AND NOT TARGET umbra_verilated_pch0)
  string(TOUPPER "${CMAKE_BUILD_TYPE}" build_type)
  separate_arguments(pch_flags UNIX_COMMAND "${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${build_type}}")
  get_property(pch_options DIRECTORY ${PROJECT_SOURCE_DIR} PROPERTY COMPILE_OPTIONS)
  foreach(trace 0 1)
    set(dir ${UMBRA_VERILATED_PCH_DIR}/trace${trace})
    add_custom_command(OUTPUT ${dir}/verilated.h.gch
      COMMAND ${CMAKE_COMMAND} -E copy ${VERILATOR_ROOT}/include/verilated.h ${dir}/verilated.h
      COMMAND ${CMAKE_CXX_COMPILER} ${pch_flags} ${pch_options} ${CMAKE_CXX17_STANDARD_COMPILE_OPTION}
              -O2 -g0 ${UMBRA_NO_SANITIZE} -DVM_COVERAGE=0 -DVM_SC=0 -DVM_TRACE=${trace}
              -DVM_TRACE_FST=0 -DVM_TRACE_VCD=${trace} -isystem ${VERILATOR_ROOT}/include
              -isystem ${VERILATOR_ROOT}/include/vltstd -x c++-header ${dir}/verilated.h
              -o ${dir}/verilated.h.gch
      DEPENDS ${VERILATOR_ROOT}/include/verilated.h
      COMMENT "Precompiling verilated.h (VM_TRACE=${trace})" VERBATIM)
    add_custom_target(umbra_verilated_pch${trace} DEPENDS ${dir}/verilated.h.gch)
  endforeach()
endif()
