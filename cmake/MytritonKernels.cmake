# mytriton_add_kernels(): compile Triton-like kernels ahead of time into a
# library target (Halide's add_halide_library is the model).
#
#   mytriton_add_kernels(<target>
#     KERNEL <python function>
#       SOURCE <file.py>                 (relative to the current source dir)
#       SIGNATURE "<sig>"                e.g. "*fp32, *fp32, *fp32, i32"
#       [NAME <launcher name>]           default: the function without "_kernel"
#       [CONSTEXPR NAME=VALUE ...]
#       [GRID "<expr>"]                  default: the launcher takes a mytriton_grid
#       [OPT_LEVEL 0|1|2]                default: 2
#       [NUM_WARPS 1|2|4|...|32]         -O2 CUDA threads per block / 32 (as
#                                        Triton's num_warps); default: by shape
#       [CONFIGS "<config>" ...]         autotuning (as @triton.autotune): each
#                                        config "BM=64 BN=128 NUM_WARPS=8
#                                        NUM_STAGES=3 [WHEN K >= 1024]" is built as
#                                        variant NAME_cfg<i>; launch_NAME times them
#                                        on the first call of a new KEY value and
#                                        keeps the fastest (NUM_STAGES: a hint the
#                                        backends do not use yet; WHEN: a condition
#                                        over the KEY parameters, + - * // % and
#                                        comparisons, and/or/not)
#       [KEY <i32 param> ...]            what the choice depends on (Triton's key)
#       [RESTORE <param>[=<elements>] ...] buffers the kernel writes: tuning runs
#                                        on scratch copies (CUDA: extent defaults to
#                                        the allocation's end; host: required)
#       [SPECIALIZE ON|OFF]              with CONFIGS: also build every config with
#                                        pointers 16-byte aligned and i32 params
#                                        divisible by 16 (NAME_cfg<i>_d16), used when
#                                        the arguments qualify; default ON. One
#                                        config with SPECIALIZE OFF is the plain
#                                        kernel (no dispatcher)
#     [KERNEL ...]...
#     [HEADER <name.h>]                  default: <target>.h
#     [BACKENDS cuda host mlir]          default: cuda
#   )
#
# <target> is a STATIC library of the generated sources. Linking it gives the
# folder of the generated headers, mytriton::runtime and, with the cuda
# backend, CUDA::cudart. Its header <target>.h includes every launcher's
# header and declares `void <target>_register_kernels(void);`, which
# registers the library's kernels with the runtime's registry.
#
# One custom command per specialization: editing one kernel source (or
# changing its options) regenerates that kernel's files only; a new compiler
# or shim regenerates all. No GPU is needed at build time and
# CMAKE_CUDA_ARCHITECTURES is respected (never set here).
#
# Works in mytriton's own build tree (mytriton::compiler is an ALIAS of
# mytritonc, MYTRITON_SHIM is set by the top-level CMakeLists.txt) and from an
# installed package (find_package(mytriton): mytriton::compiler is imported
# and mytritonConfig.cmake sets MYTRITON_SHIM beside it).
#
# The mlir backend (see the block "MLIR backend" below) needs mlir-opt of
# MLIR 19 (Debian: mlir-19-tools) and the CUDA runtime's headers, not nvcc.

include_guard(GLOBAL)

# Build tree: one spelling for the compiler everywhere.
if(TARGET mytritonc AND NOT TARGET mytriton::compiler)
  add_executable(mytriton::compiler ALIAS mytritonc)
endif()
# Remember the shim for calls from directories that do not see the variable.
if(DEFINED MYTRITON_SHIM)
  set_property(GLOBAL PROPERTY MYTRITON_SHIM "${MYTRITON_SHIM}")
endif()

function(_mytriton_write_if_different path content)
  if(EXISTS "${path}")
    file(READ "${path}" _old)
    if(_old STREQUAL content)
      return()
    endif()
  endif()
  file(WRITE "${path}" "${content}")
endfunction()

# ---- MLIR backend --------------------------------------------------------------
# Per kernel: `mytritonc -o` writes NAME.mlir; mlir-opt lowers it to
# NAME.gpu.mlir, a gpu.binary holding PTX; `mytritonc --mlir-binary` then
# writes NAME_mlir.c: launch_NAME_mlir with the PTX embedded, loaded once
# per CUDA context with the driver API (libcuda.so.1, opened at run time, so
# programs start without a driver; the library links CUDA::cudart and dl).
#   MYTRITON_MLIR_OPT   mlir-opt of MLIR 19 (found: mlir-opt-19, mlir-opt)
#   MYTRITON_MLIR_CHIP  the PTX target, e.g. sm_90 (default: the lowest of
#                       CMAKE_CUDA_ARCHITECTURES, else sm_90)

# Finds mlir-opt and the CUDA runtime, or stops the configure.
function(_mytriton_mlir_setup where)
  find_program(MYTRITON_MLIR_OPT NAMES mlir-opt-19 mlir-opt HINTS /usr/lib/llvm-19/bin
    DOC "mlir-opt of MLIR 19, for mytriton's mlir backend")
  if(NOT MYTRITON_MLIR_OPT)
    message(FATAL_ERROR "${where}: BACKENDS mlir needs mlir-opt of MLIR 19 and none was found "
      "(Debian/Ubuntu: apt-get install mlir-19-tools; or set MYTRITON_MLIR_OPT to its path)")
  endif()
  if(NOT TARGET CUDA::cudart)
    find_package(CUDAToolkit QUIET)
    if(NOT TARGET CUDA::cudart)
      message(FATAL_ERROR "${where}: BACKENDS mlir needs the CUDA toolkit's runtime and headers "
        "(find_package(CUDAToolkit)); none was found")
    endif()
  endif()
endfunction()

# The mlir-opt arguments that lower a module of mytritonc --emit=mlir to a
# gpu.binary whose `assembly` is the PTX.
function(mytriton_mlir_pipeline out_var)
  if(MYTRITON_MLIR_CHIP)
    set(_chip "${MYTRITON_MLIR_CHIP}")
  else()
    set(_chip "")
    foreach(_arch IN LISTS CMAKE_CUDA_ARCHITECTURES)
      string(REGEX REPLACE "-(real|virtual)$" "" _arch "${_arch}")
      if(_arch MATCHES "^[0-9]+$" AND (_chip STREQUAL "" OR _arch LESS _chip))
        set(_chip "${_arch}")
      endif()
    endforeach()
    if(_chip STREQUAL "")
      set(_chip 90)
    endif()
    set(_chip "sm_${_chip}")
  endif()
  # libdevice (for math.exp) from the CUDA toolkit, when CMake knows it
  set(_toolkit "")
  foreach(_dir IN ITEMS "${CUDAToolkit_LIBRARY_ROOT}" "${CUDAToolkit_BIN_DIR}/..")
    if(NOT _dir STREQUAL "" AND NOT _dir STREQUAL "/.." AND EXISTS "${_dir}/nvvm/libdevice")
      get_filename_component(_dir "${_dir}" ABSOLUTE)
      set(_toolkit " toolkit=${_dir}")
      break()
    endif()
  endforeach()
  set(${out_var}
    "--nvvm-attach-target=chip=${_chip}"
    --convert-scf-to-cf
    "--convert-gpu-to-nvvm=index-bitwidth=64"
    --convert-arith-to-llvm
    --convert-index-to-llvm
    --finalize-memref-to-llvm
    --convert-func-to-llvm
    --reconcile-unrealized-casts
    "--gpu-module-to-binary=format=isa${_toolkit}"
    PARENT_SCOPE)
endfunction()

# mytriton_python(<var>): the Python 3 interpreter that runs the parser
# shim, as the real executable (sys.executable), not a launcher script such
# as pyenv's shims, which would cost ~100 ms per kernel. Cached as
# MYTRITON_PYTHON; set that to choose another.
function(mytriton_python out)
  if(NOT MYTRITON_PYTHON)
    find_package(Python3 COMPONENTS Interpreter QUIET)
    if(NOT Python3_Interpreter_FOUND)
      set(${out} "" PARENT_SCOPE)
      return()
    endif()
    set(_py "${Python3_EXECUTABLE}")
    execute_process(COMMAND "${Python3_EXECUTABLE}" -I -S -c "import sys; sys.stdout.write(sys.executable)"
      OUTPUT_VARIABLE _real RESULT_VARIABLE _rc ERROR_QUIET)
    if(_rc EQUAL 0 AND EXISTS "${_real}")
      set(_py "${_real}")
    endif()
    set(MYTRITON_PYTHON "${_py}" CACHE FILEPATH "Python 3 interpreter for mytriton's parser shim")
  endif()
  set(${out} "${MYTRITON_PYTHON}" PARENT_SCOPE)
endfunction()

# ---- Autotuned kernels (CONFIGS) ------------------------------------------------
# A config is "NAME=VALUE ... [NUM_WARPS=n] [NUM_STAGES=n] [WHEN <condition>]":
# constexpr values, Triton's num_warps and num_stages (a hint the backends do
# not use yet), and an optional condition over the KEY parameters. Sets
# <prefix>_defs (NAME=VALUE list), <prefix>_warps, <prefix>_stages,
# <prefix>_text (without WHEN) and <prefix>_when.
function(_mytriton_parse_config where fn cfg prefix)
  set(_when "")
  set(_text "${cfg}")
  string(FIND "${cfg}" " WHEN " _at)
  if(_at GREATER_EQUAL 0)
    string(SUBSTRING "${cfg}" 0 ${_at} _text)
    math(EXPR _from "${_at} + 6")
    string(SUBSTRING "${cfg}" ${_from} -1 _when)
    string(STRIP "${_when}" _when)
    if(_when STREQUAL "")
      message(FATAL_ERROR "${where}: KERNEL ${fn}: config '${cfg}': WHEN needs a condition")
    endif()
  endif()
  string(STRIP "${_text}" _text)
  string(REGEX REPLACE "[ \t]+" " " _text "${_text}")
  string(REGEX MATCHALL "[^ \t]+" _tokens "${_text}")
  if(_tokens STREQUAL "")
    message(FATAL_ERROR "${where}: KERNEL ${fn}: an empty config in CONFIGS")
  endif()
  set(_defs "")
  set(_warps "")
  set(_stages "")
  set(_seen "")
  foreach(_tok IN LISTS _tokens)
    if(NOT _tok MATCHES "^([A-Za-z_][A-Za-z0-9_]*)=(.+)$")
      message(FATAL_ERROR "${where}: KERNEL ${fn}: config '${cfg}': '${_tok}' is not NAME=VALUE "
        "(a config is \"NAME=VALUE ... [NUM_WARPS=n] [NUM_STAGES=n] [WHEN condition]\")")
    endif()
    set(_k "${CMAKE_MATCH_1}")
    set(_v "${CMAKE_MATCH_2}")
    if(_k IN_LIST _seen)
      message(FATAL_ERROR "${where}: KERNEL ${fn}: config '${cfg}': ${_k} given twice")
    endif()
    list(APPEND _seen "${_k}")
    if(_k STREQUAL "NUM_WARPS")
      if(NOT _v MATCHES "^(1|2|4|8|16|32)$")
        message(FATAL_ERROR "${where}: KERNEL ${fn}: config '${cfg}': NUM_WARPS must be 1, 2, 4, 8, 16 or 32")
      endif()
      set(_warps "${_v}")
    elseif(_k STREQUAL "NUM_STAGES")
      if(NOT _v MATCHES "^([1-9]|1[0-6])$")
        message(FATAL_ERROR "${where}: KERNEL ${fn}: config '${cfg}': NUM_STAGES must be 1 to 16")
      endif()
      set(_stages "${_v}")
    else()
      list(APPEND _defs "${_tok}")
    endif()
  endforeach()
  set(${prefix}_defs "${_defs}" PARENT_SCOPE)
  set(${prefix}_warps "${_warps}" PARENT_SCOPE)
  set(${prefix}_stages "${_stages}" PARENT_SCOPE)
  set(${prefix}_text "${_text}" PARENT_SCOPE)
  set(${prefix}_when "${_when}" PARENT_SCOPE)
endfunction()

# One mytritonc run writing NAME.h and the backends' files (a macro: it
# appends to the caller's _sources and _registers).
macro(_mytriton_compile_command _cname _cargs_var _what)
  set(_outputs "${_outdir}/${_cname}.h")
  if("cuda" IN_LIST _backends)
    list(APPEND _outputs "${_outdir}/${_cname}.cu")
    list(APPEND _registers "mytriton_kernel_info_${_cname}")
  endif()
  if("host" IN_LIST _backends)
    list(APPEND _outputs "${_outdir}/${_cname}_host.c")
    list(APPEND _registers "mytriton_kernel_info_${_cname}_host")
  endif()
  if("mlir" IN_LIST _backends)
    list(APPEND _outputs "${_outdir}/${_cname}.mlir")
    list(APPEND _registers "mytriton_kernel_info_${_cname}_mlir")
  endif()
  # The options as a file: changing them reruns this command with any
  # generator (Ninja also notices a changed command line by itself).
  set(_stamp "${_stampdir}/${_cname}.options")
  string(REPLACE ";" "\n" _options_text "${${_cargs_var}}")
  _mytriton_write_if_different("${_stamp}" "${_options_text}\n")
  add_custom_command(
    OUTPUT ${_outputs}
    COMMAND "$<TARGET_FILE:mytriton::compiler>" ${${_cargs_var}}
            --python "${_python}" --shim "${_shim}" -o "${_outdir}"
    DEPENDS "${_src}" "${_shim}" ${_compiler_dep} "${_stamp}"
    WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}"
    COMMENT "mytriton: compiling ${_what} [${_backends_text}]"
    VERBATIM)
  list(APPEND _sources ${_outputs})
endmacro()

function(mytriton_add_kernels target)
  set(_where "mytriton_add_kernels(${target})")
  set(_single_group SOURCE NAME SIGNATURE GRID OPT_LEVEL NUM_WARPS SPECIALIZE)
  set(_group_lists CONSTEXPR CONFIGS KEY RESTORE)   # per-kernel keywords taking several values
  set(_known KERNEL SOURCE NAME SIGNATURE CONSTEXPR GRID OPT_LEVEL NUM_WARPS HEADER BACKENDS
    CONFIGS KEY RESTORE SPECIALIZE)
  string(REPLACE ";" " " _known_text "${_known}")

  # ---- Parse the arguments by hand: KERNEL starts a group of options.
  # ARGV<i> keeps every argument whole (a signature or grid may be anything
  # but must not contain ';').
  set(_n 0)              # number of KERNEL groups
  set(_expect "")        # a keyword waiting for its single value
  set(_multi "")         # CONSTEXPR or BACKENDS while reading their values
  set(_skipping FALSE)   # values of an unknown keyword
  set(_header "")
  set(_header_given FALSE)
  set(_backends "")
  math(EXPR _last "${ARGC} - 1")
  if(_last GREATER_EQUAL 1)
    foreach(_i RANGE 1 ${_last})
      set(_arg "${ARGV${_i}}")
      if(NOT _expect STREQUAL "")
        if(_arg IN_LIST _known)
          message(FATAL_ERROR "${_where}: ${_expect} needs a value before ${_arg}")
        endif()
        if(_expect STREQUAL "HEADER")
          set(_header "${_arg}")
        elseif(_expect STREQUAL "KERNEL")
          set(_g${_n}_KERNEL "${_arg}")
        else()
          set(_g${_n}_${_expect} "${_arg}")
          set(_g${_n}_has_${_expect} TRUE)
        endif()
        set(_expect "")
        continue()
      endif()

      if(_arg IN_LIST _known)
        set(_multi "")
        set(_skipping FALSE)
        if(_arg STREQUAL "KERNEL")
          math(EXPR _n "${_n} + 1")
          foreach(_list IN LISTS _group_lists)
            set(_g${_n}_${_list} "")
          endforeach()
          set(_expect KERNEL)
        elseif(_arg STREQUAL "HEADER")
          if(_header_given)
            message(FATAL_ERROR "${_where}: HEADER given twice")
          endif()
          set(_header_given TRUE)
          set(_expect HEADER)
        elseif(_arg STREQUAL "BACKENDS")
          set(_multi BACKENDS)
        else()
          if(_n EQUAL 0)
            message(FATAL_ERROR "${_where}: ${_arg} before the first KERNEL "
              "(each kernel's options follow its KERNEL <function>)")
          endif()
          if(_arg IN_LIST _group_lists)
            set(_multi ${_arg})
            set(_g${_n}_has_${_arg} TRUE)
          else()
            if(_g${_n}_has_${_arg})
              message(FATAL_ERROR "${_where}: ${_arg} given twice for KERNEL ${_g${_n}_KERNEL}")
            endif()
            set(_expect ${_arg})
          endif()
        endif()
      elseif(_skipping)
        # a value of an unknown keyword: ignored with it
      elseif(_multi STREQUAL "CONSTEXPR" AND _arg MATCHES "^[A-Za-z_][A-Za-z0-9_]*=.")
        list(APPEND _g${_n}_CONSTEXPR "${_arg}")
      elseif(_multi MATCHES "^(CONFIGS|KEY|RESTORE)$")
        list(APPEND _g${_n}_${_multi} "${_arg}")
      elseif(_multi STREQUAL "BACKENDS" AND _arg MATCHES "^(cuda|host|mlir)$")
        if(NOT _arg IN_LIST _backends)
          list(APPEND _backends "${_arg}")
        endif()
      elseif(_arg MATCHES "^[A-Z][A-Z0-9_]*$")
        set(_hint "")
        if(_multi STREQUAL "CONSTEXPR")
          set(_hint "; CONSTEXPR values are written NAME=VALUE")
        endif()
        message(WARNING "${_where}: unknown keyword ${_arg} (ignored, with its values${_hint}); "
          "known keywords: ${_known_text}")
        set(_multi "")
        set(_skipping TRUE)
      elseif(_multi STREQUAL "CONSTEXPR")
        message(FATAL_ERROR "${_where}: CONSTEXPR values are NAME=VALUE, got '${_arg}'")
      elseif(_multi STREQUAL "BACKENDS")
        message(FATAL_ERROR "${_where}: unknown backend '${_arg}' (backends: cuda host mlir)")
      else()
        message(WARNING "${_where}: unexpected argument '${_arg}' ignored; "
          "known keywords: ${_known_text}")
      endif()
    endforeach()
  endif()
  if(NOT _expect STREQUAL "")
    message(FATAL_ERROR "${_where}: ${_expect} needs a value")
  endif()
  if(_n EQUAL 0)
    message(FATAL_ERROR "${_where}: no KERNEL given "
      "(usage: KERNEL <function> SOURCE <file.py> SIGNATURE \"<sig>\" ...)")
  endif()
  if(_backends STREQUAL "")
    set(_backends cuda)
  endif()
  if(_header STREQUAL "")
    set(_header "${target}.h")
  endif()
  if(NOT _header MATCHES "^[A-Za-z0-9_.+-]+$")
    message(FATAL_ERROR "${_where}: HEADER must be a plain file name, got '${_header}'")
  endif()

  # ---- Validate each specialization.
  get_property(_project_launchers GLOBAL PROPERTY MYTRITON_LAUNCHERS)
  get_property(_project_symbols GLOBAL PROPERTY MYTRITON_LAUNCHER_SYMBOLS)
  set(_names "")
  set(_symbols "")
  foreach(_g RANGE 1 ${_n})
    set(_fn "${_g${_g}_KERNEL}")
    if(NOT _fn MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
      message(FATAL_ERROR "${_where}: KERNEL must name a Python function, got '${_fn}'")
    endif()
    foreach(_kw SOURCE SIGNATURE)
      if(NOT _g${_g}_has_${_kw})
        message(FATAL_ERROR "${_where}: KERNEL ${_fn} has no ${_kw} (required)")
      endif()
    endforeach()
    if(NOT _g${_g}_has_NAME)
      string(REGEX REPLACE "_kernel$" "" _g${_g}_NAME "${_fn}")
      if(_g${_g}_NAME STREQUAL "")
        set(_g${_g}_NAME "${_fn}")
      endif()
    endif()
    set(_name "${_g${_g}_NAME}")
    if(NOT _name MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
      message(FATAL_ERROR "${_where}: NAME must be a C identifier, got '${_name}'")
    endif()
    if(_name IN_LIST _names)
      message(FATAL_ERROR "${_where}: duplicate launcher name '${_name}' "
        "(launch_${_name}); give one of the kernels a different NAME")
    endif()
    foreach(_entry IN LISTS _project_launchers)
      if(_entry MATCHES "^${_name}=(.*)$")
        message(FATAL_ERROR "${_where}: duplicate launcher name '${_name}' "
          "(launch_${_name}), already made by mytriton_add_kernels(${CMAKE_MATCH_1}); "
          "launchers are C symbols and registry names, so they must be unique")
      endif()
    endforeach()
    list(APPEND _names "${_name}")
    # every backend's launcher symbol must be unique too (NAME x with the
    # host backend and NAME x_host with cuda both make launch_x_host)
    foreach(_backend IN LISTS _backends)
      set(_sym "launch_${_name}")
      if(NOT _backend STREQUAL "cuda")
        string(APPEND _sym "_${_backend}")
      endif()
      if(_sym IN_LIST _symbols)
        message(FATAL_ERROR "${_where}: two kernels would both define ${_sym}; "
          "give one of them a different NAME")
      endif()
      foreach(_entry IN LISTS _project_symbols)
        if(_entry MATCHES "^${_sym}=(.*)$")
          message(FATAL_ERROR "${_where}: ${_sym} is already defined by "
            "mytriton_add_kernels(${CMAKE_MATCH_1}); give this kernel a different NAME")
        endif()
      endforeach()
      list(APPEND _symbols "${_sym}")
    endforeach()
    if(NOT _g${_g}_has_OPT_LEVEL)
      set(_g${_g}_OPT_LEVEL 2)
    elseif(NOT _g${_g}_OPT_LEVEL MATCHES "^[012]$")
      message(FATAL_ERROR "${_where}: OPT_LEVEL of KERNEL ${_fn} must be 0, 1 or 2, "
        "got '${_g${_g}_OPT_LEVEL}'")
    endif()
    get_filename_component(_src "${_g${_g}_SOURCE}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${_src}")
      message(FATAL_ERROR "${_where}: SOURCE of KERNEL ${_fn} not found: ${_src}")
    endif()
    set(_g${_g}_abs "${_src}")

    # CONFIGS / KEY / RESTORE / SPECIALIZE: an autotuned launcher over variants
    # NAME_cfg<i> (and NAME_cfg<i>_d16, Triton's divisibility specialization).
    set(_g${_g}_nconfigs 0)
    set(_g${_g}_variants "")
    if(_g${_g}_has_CONFIGS)
      if(_g${_g}_CONFIGS STREQUAL "")
        message(FATAL_ERROR "${_where}: CONFIGS of KERNEL ${_fn} needs at least one config")
      endif()
      if("mlir" IN_LIST _backends)
        message(FATAL_ERROR "${_where}: KERNEL ${_fn}: CONFIGS work with the cuda and host backends, not mlir")
      endif()
      if(NOT _g${_g}_has_SPECIALIZE)
        set(_g${_g}_SPECIALIZE ON)
      elseif(NOT _g${_g}_SPECIALIZE MATCHES "^(ON|OFF)$")
        message(FATAL_ERROR "${_where}: SPECIALIZE of KERNEL ${_fn} must be ON or OFF, "
          "got '${_g${_g}_SPECIALIZE}'")
      endif()
      set(_i 0)
      foreach(_cfg IN LISTS _g${_g}_CONFIGS)
        _mytriton_parse_config("${_where}" "${_fn}" "${_cfg}" _g${_g}_cfg${_i})
        foreach(_def IN LISTS _g${_g}_cfg${_i}_defs)
          string(REGEX REPLACE "=.*$" "" _k "${_def}")
          foreach(_fixed IN LISTS _g${_g}_CONSTEXPR)
            if(_fixed MATCHES "^${_k}=")
              message(FATAL_ERROR "${_where}: KERNEL ${_fn}: ${_k} is in both CONSTEXPR and config '${_cfg}'")
            endif()
          endforeach()
        endforeach()
        if(NOT _g${_g}_cfg${_i}_when STREQUAL "" AND NOT _g${_g}_has_KEY)
          message(FATAL_ERROR "${_where}: KERNEL ${_fn}: WHEN conditions are over the KEY parameters; give KEY")
        endif()
        math(EXPR _i "${_i} + 1")
      endforeach()
      set(_g${_g}_nconfigs ${_i})
      foreach(_key IN LISTS _g${_g}_KEY)
        if(NOT _key MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
          message(FATAL_ERROR "${_where}: KEY of KERNEL ${_fn}: '${_key}' is not a parameter name")
        endif()
      endforeach()
      foreach(_r IN LISTS _g${_g}_RESTORE)
        if(NOT _r MATCHES "^[A-Za-z_][A-Za-z0-9_]*(=.+)?$")
          message(FATAL_ERROR "${_where}: RESTORE of KERNEL ${_fn}: '${_r}' is not NAME or NAME=<extent in elements>")
        endif()
        if("host" IN_LIST _backends AND NOT _r MATCHES "=")
          message(FATAL_ERROR "${_where}: RESTORE ${_r} of KERNEL ${_fn}: the host backend needs the buffer's "
            "extent in elements (RESTORE ${_r}=<expression>, e.g. ${_r}=M*N)")
        endif()
      endforeach()
      if(_i GREATER 1 OR _g${_g}_SPECIALIZE)
        math(EXPR _last_cfg "${_i} - 1")
        foreach(_c RANGE 0 ${_last_cfg})
          list(APPEND _g${_g}_variants "${_name}_cfg${_c}")
          if(_g${_g}_SPECIALIZE)
            list(APPEND _g${_g}_variants "${_name}_cfg${_c}_d16")
          endif()
        endforeach()
      endif()
      foreach(_variant IN LISTS _g${_g}_variants)
        foreach(_backend IN LISTS _backends)
          set(_sym "launch_${_variant}")
          if(NOT _backend STREQUAL "cuda")
            string(APPEND _sym "_${_backend}")
          endif()
          if(_sym IN_LIST _symbols)
            message(FATAL_ERROR "${_where}: two kernels would both define ${_sym}; "
              "give one of them a different NAME")
          endif()
          list(APPEND _symbols "${_sym}")
        endforeach()
      endforeach()
    else()
      foreach(_kw KEY RESTORE SPECIALIZE)
        if(_g${_g}_has_${_kw})
          message(FATAL_ERROR "${_where}: KERNEL ${_fn}: ${_kw} needs CONFIGS")
        endif()
      endforeach()
    endif()
  endforeach()

  # ---- What the build needs: compiler, shim, Python, languages, CUDA.
  if(NOT TARGET mytriton::compiler)
    message(FATAL_ERROR "${_where}: no mytriton::compiler target; "
      "call find_package(mytriton REQUIRED) first")
  endif()
  get_target_property(_aliased mytriton::compiler ALIASED_TARGET)
  if(_aliased)
    set(_compiler_dep "${_aliased}")               # target- and file-level dependency
  else()
    set(_compiler_dep "$<TARGET_FILE:mytriton::compiler>")  # imported: the file
  endif()
  if(DEFINED MYTRITON_SHIM)
    set(_shim "${MYTRITON_SHIM}")
  else()
    get_property(_shim GLOBAL PROPERTY MYTRITON_SHIM)
    if(NOT _shim)
      set(_shim "$<TARGET_FILE_DIR:mytriton::compiler>/mytriton_parse.py")
    endif()
  endif()
  mytriton_python(_python)
  if(NOT _python)
    message(FATAL_ERROR "${_where}: the kernel compiler needs a Python 3 interpreter "
      "(for its parser shim); none found (set Python3_EXECUTABLE)")
  endif()
  get_property(_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT "C" IN_LIST _languages)
    message(FATAL_ERROR "${_where}: the C language must be enabled (project(... LANGUAGES C ...))")
  endif()
  if("cuda" IN_LIST _backends)
    if(NOT "CUDA" IN_LIST _languages)
      message(FATAL_ERROR "${_where}: the cuda backend needs the CUDA language: "
        "enable_language(CUDA) before mytriton_add_kernels(), or use BACKENDS host")
    endif()
    if(NOT TARGET CUDA::cudart)
      find_package(CUDAToolkit REQUIRED)
    endif()
  endif()
  if("mlir" IN_LIST _backends)
    _mytriton_mlir_setup("${_where}")
    mytriton_mlir_pipeline(_mlir_pipeline)
  endif()
  string(REPLACE ";" "," _backends_arg "${_backends}")
  string(REPLACE ";" ", " _backends_text "${_backends}")

  # ---- One custom command per specialization.
  set(_outdir "${CMAKE_CURRENT_BINARY_DIR}/${target}")
  set(_stampdir "${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/${target}.mytriton")
  file(MAKE_DIRECTORY "${_outdir}" "${_stampdir}")
  set(_sources "")
  set(_includes "")
  set(_registers "")
  set(_summary "")
  foreach(_g RANGE 1 ${_n})
    set(_fn "${_g${_g}_KERNEL}")
    set(_name "${_g${_g}_NAME}")
    set(_src "${_g${_g}_abs}")
    file(RELATIVE_PATH _src_rel "${CMAKE_SOURCE_DIR}" "${_src}")
    set(_args "${_src}" --kernel "${_fn}" --signature "${_g${_g}_SIGNATURE}")
    foreach(_def IN LISTS _g${_g}_CONSTEXPR)
      list(APPEND _args -D "${_def}")
    endforeach()
    if(_g${_g}_has_GRID)
      list(APPEND _args --grid "${_g${_g}_GRID}")
    endif()
    list(APPEND _args --name "${_name}" "-O${_g${_g}_OPT_LEVEL}" --backends "${_backends_arg}")
    if(_g${_g}_has_NUM_WARPS)
      if(NOT _g${_g}_NUM_WARPS MATCHES "^(1|2|4|8|16|32)$")
        message(FATAL_ERROR "${_where}: NUM_WARPS of KERNEL ${_fn} must be 1, 2, 4, 8, 16 or 32, "
          "got '${_g${_g}_NUM_WARPS}'")
      endif()
      list(APPEND _args --num-warps "${_g${_g}_NUM_WARPS}")
    endif()

    if(_g${_g}_nconfigs EQUAL 1 AND NOT _g${_g}_variants)
      # one config, SPECIALIZE OFF: the kernel itself, no dispatcher
      foreach(_def IN LISTS _g${_g}_cfg0_defs)
        list(APPEND _args -D "${_def}")
      endforeach()
      if(_g${_g}_cfg0_warps)
        list(APPEND _args --num-warps "${_g${_g}_cfg0_warps}")
      endif()
      if(_g${_g}_cfg0_stages)
        list(APPEND _args --num-stages "${_g${_g}_cfg0_stages}")
      endif()
    endif()
    if(_g${_g}_variants)
      # the variants, then the dispatcher launch_NAME over them
      set(_c 0)
      foreach(_variant IN LISTS _g${_g}_variants)
        string(REGEX REPLACE "^.*_cfg([0-9]+)(_d16)?$" "\\1" _c "${_variant}")
        set(_vargs ${_args} --name "${_variant}")
        foreach(_def IN LISTS _g${_g}_cfg${_c}_defs)
          list(APPEND _vargs -D "${_def}")
        endforeach()
        if(_g${_g}_cfg${_c}_warps)
          list(APPEND _vargs --num-warps "${_g${_g}_cfg${_c}_warps}")
        endif()
        if(_g${_g}_cfg${_c}_stages)
          list(APPEND _vargs --num-stages "${_g${_g}_cfg${_c}_stages}")
        endif()
        if(_variant MATCHES "_d16$")
          list(APPEND _vargs --divisibility-16)
        endif()
        _mytriton_compile_command("${_variant}" _vargs "variant ${_variant} of launch_${_name}")
      endforeach()
      set(_dargs ${_args})
      math(EXPR _last_cfg "${_g${_g}_nconfigs} - 1")
      foreach(_c RANGE 0 ${_last_cfg})
        list(APPEND _dargs --config "${_g${_g}_cfg${_c}_text}")
        if(NOT _g${_g}_cfg${_c}_when STREQUAL "")
          list(APPEND _dargs --when "${_g${_g}_cfg${_c}_when}")
        endif()
      endforeach()
      if(_g${_g}_KEY)
        string(REPLACE ";" "," _keys "${_g${_g}_KEY}")
        list(APPEND _dargs --key "${_keys}")
      endif()
      foreach(_r IN LISTS _g${_g}_RESTORE)
        list(APPEND _dargs --restore "${_r}")
      endforeach()
      if(_g${_g}_SPECIALIZE)
        list(APPEND _dargs --specialize on)
      else()
        list(APPEND _dargs --specialize off)
      endif()
      _mytriton_compile_command("${_name}" _dargs "the dispatching launch_${_name} over ${_g${_g}_nconfigs} config(s)")
    else()
      _mytriton_compile_command("${_name}" _args "kernel ${_fn} (${_src_rel}) into launch_${_name}")
    endif()
    if("mlir" IN_LIST _backends)
      # NAME.mlir -> mlir-opt -> NAME.gpu.mlir -> NAME_mlir.c
      set(_mlir_stamp "${_stampdir}/${_name}.mlir-options")
      string(REPLACE ";" "\n" _mlir_text "${MYTRITON_MLIR_OPT};${_mlir_pipeline}")
      _mytriton_write_if_different("${_mlir_stamp}" "${_mlir_text}\n")
      add_custom_command(
        OUTPUT "${_outdir}/${_name}_mlir.c" "${_outdir}/${_name}.gpu.mlir"
        COMMAND "${MYTRITON_MLIR_OPT}" "${_outdir}/${_name}.mlir" ${_mlir_pipeline}
                -o "${_outdir}/${_name}.gpu.mlir"
        COMMAND "$<TARGET_FILE:mytriton::compiler>" ${_args}
                --python "${_python}" --shim "${_shim}"
                --mlir-binary "${_outdir}/${_name}.gpu.mlir" -o "${_outdir}"
        DEPENDS "${_outdir}/${_name}.mlir" "${_src}" "${_shim}" ${_compiler_dep} "${_stamp}" "${_mlir_stamp}"
        WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}"
        COMMENT "mytriton: lowering ${_name}.mlir to PTX with mlir-opt (launch_${_name}_mlir)"
        VERBATIM)
      list(APPEND _sources "${_outdir}/${_name}_mlir.c")
    endif()
    string(APPEND _includes "#include \"${_name}.h\" /* ${_fn} from ${_src_rel}: launch_${_name} */\n")
    list(APPEND _summary "${_name}")
  endforeach()

  # ---- The library's header and its registration function (configure
  # time, rewritten only when the content changes).
  string(MAKE_C_IDENTIFIER "${target}" _cid)
  string(MAKE_C_IDENTIFIER "MYTRITON_GENERATED_${target}_${_header}" _guard)
  string(TOUPPER "${_guard}" _guard)
  string(REPLACE ";" ", " _summary_text "${_summary}")
  set(_header_text
"/* Generated by mytriton_add_kernels(${target}). Do not edit. */
/* Kernels: ${_summary_text}; backends: ${_backends_text}. */
#ifndef ${_guard}
#define ${_guard}

${_includes}
#ifdef __cplusplus
extern \"C\" {
#endif

/* Registers this library's kernels with the mytriton registry (see
 * mytriton_find_kernel() and mytriton_launch()). Call it once before looking
 * them up; calling it again does nothing. */
void ${_cid}_register_kernels(void);

#ifdef __cplusplus
}
#endif
#endif /* ${_guard} */
")
  set(_register_calls "")
  foreach(_sym IN LISTS _registers)
    string(APPEND _register_calls "    (void)mytriton_register_kernel(&${_sym});\n")
  endforeach()
  set(_registry_text
"/* Generated by mytriton_add_kernels(${target}). Do not edit. */
#include \"${_header}\"

void ${_cid}_register_kernels(void) {
${_register_calls}}
")
  _mytriton_write_if_different("${_outdir}/${_header}" "${_header_text}")
  _mytriton_write_if_different("${_outdir}/${_cid}_registry.c" "${_registry_text}")

  # ---- The library.
  add_library(${target} STATIC
    ${_sources} "${_outdir}/${_header}" "${_outdir}/${_cid}_registry.c")
  target_include_directories(${target} PUBLIC "$<BUILD_INTERFACE:${_outdir}>")
  target_link_libraries(${target} PUBLIC mytriton::runtime)
  target_compile_features(${target} PRIVATE c_std_11)
  if("cuda" IN_LIST _backends)
    target_link_libraries(${target} PUBLIC CUDA::cudart)
  endif()
  if("mlir" IN_LIST _backends)
    target_link_libraries(${target} PUBLIC CUDA::cudart ${CMAKE_DL_LIBS})
  endif()
  if("host" IN_LIST _backends AND UNIX AND NOT APPLE)
    target_link_libraries(${target} PUBLIC m)   # host kernels call expf & co.
  endif()
  set_target_properties(${target} PROPERTIES
    MYTRITON_LAUNCHERS "${_names}"
    MYTRITON_BACKENDS "${_backends}"
    MYTRITON_HEADER "${_outdir}/${_header}")

  foreach(_name IN LISTS _names)
    set_property(GLOBAL APPEND PROPERTY MYTRITON_LAUNCHERS "${_name}=${target}")
  endforeach()
  foreach(_sym IN LISTS _symbols)
    set_property(GLOBAL APPEND PROPERTY MYTRITON_LAUNCHER_SYMBOLS "${_sym}=${target}")
  endforeach()
endfunction()
