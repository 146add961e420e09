# mytriton_add_kernels(): compile Triton-like kernels ahead of time into a
# library target (Halide's add_halide_library is the model).
#
#   mytriton_add_kernels(<target>
#     KERNEL <python function>
#       SOURCE <file.py>                 (relative to the current source dir)
#       SIGNATURE "<sig>"                e.g. "*fp32, *fp32, *fp32, i32"
#       [NAME <launcher name>]           default: the function without "_kernel"
#       [CONSTEXPR NAME=VALUE ...]       VALUE: a Python literal as -D takes it: 128,
#                                        0.5, True, None, 'text' or a bare word
#                                        (ACTIVATION=leaky_relu is a string), a
#                                        tuple (1, 2); an item with spaces is
#                                        quoted whole: "COEFS=(1.0, 2.0)"
#       [MODULE_VALUES NAME=VALUE ...]   module-level names that Python computes at
#                                        import time (IS_BLACKWELL = torch...), fixed
#                                        for this build: module-level if conditions
#                                        and the kernel read VALUE (as CONSTEXPR's)
#       [GRID "<expr>"]                  default: the launcher takes a mytriton_grid
#       [GRID_PARAMS name ...]           launcher-only int32_t parameters (after
#                                        the kernel's) the GRID may use
#       [OPT_LEVEL 0|1|2]                default: 2
#       [NUM_WARPS 1|2|4|...|32]         -O2 CUDA threads per block / 32 (as
#                                        Triton's num_warps); default: by shape
#       [NUM_STAGES 1..16]               Triton's num_stages (-O2 tl.dot kernels:
#                                        the operand copies' pipeline depth)
#       [CONFIGS "<config>" ...]         autotuning (as @triton.autotune): each
#                                        config "BM=64 BN=128 NUM_WARPS=8
#                                        NUM_STAGES=3 [WHEN K >= 1024]" is built as
#                                        variant NAME_cfg<i>; launch_NAME times them
#                                        on the first call of a new KEY value and
#                                        keeps the fastest (NUM_STAGES: the copy ring
#                                        of the tensor-core kernels; WHEN: a condition
#                                        over the KEY parameters, + - * // % and
#                                        comparisons, and/or/not)
#       [KEY <integer param> ...]        what the choice depends on (Triton's key)
#       [RESTORE <param>[=<elements>] ...] buffers the kernel writes: tuning runs
#                                        on scratch copies (CUDA: extent defaults to
#                                        the allocation's end; host: required)
#       [DEBUG ON|OFF]                   ON: tl.device_assert is compiled in (Triton's
#                                        debug=True); default OFF (no code)
#       [SPECIALIZE ON|OFF]              with CONFIGS: also build every config with
#                                        pointers 16-byte aligned and i32 params
#                                        divisible by 16 (NAME_cfg<i>_d16), used when
#                                        the arguments qualify; default ON. One
#                                        config with SPECIALIZE OFF is the plain
#                                        kernel (no dispatcher)
#     [KERNEL ...]...
#     [HEADER <name.h>]                  default: <target>.h
#     [BACKENDS cuda host mlir]          default: cuda
#     [STATIC | SHARED]                  default: as BUILD_SHARED_LIBS (STATIC)
#   )
#
# Arguments are parsed with cmake_parse_arguments, per KERNEL block; the
# keywords are listed once, in _mytriton_keywords() below. Mistakes are
# configure errors naming the keyword and its CMakeLists line: unknown or
# repeated keywords, missing values, and what can be checked against the
# kernel's parameters (read with Python's ast module, see
# _mytriton_kernel_params): SIGNATURE arity and names, CONSTEXPR names,
# GRID names. The compiler runs with --option-spelling cmake, so its own
# messages about options say CONSTEXPR/GRID/SIGNATURE/NAME.
#
# <target> is a library of the generated sources. Linking it gives the
# folder of the library's header <target>.h (the kernels' own headers are
# below it, <target>/<NAME>.h), mytriton::runtime and, with the cuda
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

# mytriton_find_mlir_opt(<var>): the one lookup of mlir-opt of MLIR 19,
# cached as MYTRITON_MLIR_OPT (set it to choose another); <var> is its path
# or empty.
function(mytriton_find_mlir_opt out)
  find_program(MYTRITON_MLIR_OPT NAMES mlir-opt-19 mlir-opt HINTS /usr/lib/llvm-19/bin
    DOC "mlir-opt of MLIR 19, for mytriton's mlir backend")
  if(MYTRITON_MLIR_OPT)
    set(${out} "${MYTRITON_MLIR_OPT}" PARENT_SCOPE)
  else()
    set(${out} "" PARENT_SCOPE)
  endif()
endfunction()

# Finds mlir-opt and the CUDA runtime, or stops the configure.
function(_mytriton_mlir_setup where)
  mytriton_find_mlir_opt(_mlir_opt)
  if(NOT _mlir_opt)
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

# ---- The keywords of mytriton_add_kernels() -------------------------------------
# The one list of keywords: a new keyword is added here and read below as
# _k_<KEYWORD> (per KERNEL block) or _t_<KEYWORD> (the target).
macro(_mytriton_keywords)
  # per KERNEL block
  set(_kernel_options "")
    set(_kernel_one_value SOURCE NAME SIGNATURE GRID OPT_LEVEL NUM_WARPS NUM_STAGES SPECIALIZE DEBUG)
    set(_kernel_multi_value CONSTEXPR MODULE_VALUES GRID_PARAMS CONFIGS KEY RESTORE)
  # per call (anywhere in the call, once)
  set(_target_options STATIC SHARED)
  set(_target_one_value HEADER)
  set(_target_multi_value BACKENDS)
  set(_keywords KERNEL ${_kernel_options} ${_kernel_one_value} ${_kernel_multi_value}
    ${_target_options} ${_target_one_value} ${_target_multi_value})
endmacro()

# _mytriton_error(<target> <kernel function or ""> <keyword or ""> <text>...)
# Stops the configure with <text>, prefixed with the line of the calling
# CMakeLists file where <keyword> (of that KERNEL block) is written when it
# can be found there (the call stack below the message names the call's
# first line in any case; a call spelled out several times in the file with
# the same target, or through a variable, gets no line in the text).
function(_mytriton_error target kernel keyword)
  set(_text "")
  foreach(_i RANGE 3 ${ARGC})
    if(_i LESS ARGC)
      string(APPEND _text "${ARGV${_i}}")   # ARGV<i>: a ';' in the text stays
    endif()
  endforeach()
  set(_loc "")
  set(_file "${CMAKE_CURRENT_LIST_FILE}")
  if(EXISTS "${_file}")
    file(READ "${_file}" _f)
    string(REGEX REPLACE "([][+.*()^$?|\\\\])" "\\\\\\1" _t "${target}")
    string(REGEX MATCHALL "mytriton_add_kernels[ \t]*\\([ \t\r\n]*${_t}[ \t\r\n)]" _m "${_f}")
    list(LENGTH _m _calls)
    if(_calls EQUAL 1)   # the call is spelled out once in the file: find the keyword in it
      string(FIND "${_f}" "${_m}" _pos)
      string(SUBSTRING "${_f}" ${_pos} -1 _rest)
      set(_ws "[ \t\r\n]")
      if(NOT kernel STREQUAL "")
        string(REGEX MATCH "${_ws}KERNEL${_ws}+${kernel}${_ws}" _km "${_rest}")
        if(_km)
          string(FIND "${_rest}" "${_km}" _kpos)
          math(EXPR _pos "${_pos} + ${_kpos} + 1")
          string(SUBSTRING "${_rest}" ${_kpos} -1 _rest)
        endif()
      endif()
      if(NOT keyword STREQUAL "" AND NOT keyword STREQUAL "KERNEL")
        string(REGEX MATCH "${_ws}${keyword}(${_ws}|\\)|$)" _wm "${_rest}")
        if(_wm)
          string(FIND "${_rest}" "${_wm}" _wpos)
          math(EXPR _pos "${_pos} + ${_wpos} + 1")
        endif()
      endif()
      string(SUBSTRING "${_f}" 0 ${_pos} _before)
      string(REGEX REPLACE "[^\n]" "" _newlines "${_before}")
      string(LENGTH "${_newlines}" _line)
      math(EXPR _line "${_line} + 1")
      file(RELATIVE_PATH _rel "${CMAKE_SOURCE_DIR}" "${_file}")
      if(_rel MATCHES "^\\.\\./")
        set(_rel "${_file}")
      endif()
      set(_loc "${_rel}:${_line}: ")
    endif()
  endif()
  message(FATAL_ERROR "${_loc}mytriton_add_kernels(${target}): ${_text}")
endfunction()

# _mytriton_kernel_params(<out var> <file.py> <function>): the parameters of a
# function of a kernel file as NAME:KIND entries, KIND r (runtime), c
# (tl.constexpr) or cd (tl.constexpr with a default), after the function's
# line: "12;x:r;y:r;n:r;BLOCK:cd". "" when the function is not in the file;
# "?" when the file cannot be parsed here (the build reports why), or when
# which definition counts depends on a module-level `if` (the compiler may
# know its condition) and the definitions' parameters differ. Python's ast
# module parses the file (never runs it), once per file and configure. The
# definition that counts is the one mytritonc compiles: the last one bound at
# module level, definitions inside module-level `if` and `try` statements
# included, walked as mytritonc walks them (an `if`'s else before its body, a
# `try`'s handlers last to first, then its body, else and finally).
function(_mytriton_kernel_params out file fn python)
set(_script [=[
import ast, sys
path = sys.argv[1]
with open(path, 'rb') as f:
    tree = ast.parse(f.read(), path)
def constexpr(a):
    if isinstance(a, ast.Attribute): return a.attr == 'constexpr'
    if isinstance(a, ast.Name): return a.id == 'constexpr'
    if isinstance(a, ast.Constant) and isinstance(a.value, str): return a.value in ('tl.constexpr', 'constexpr')
    return False
defs = {}
def walk(stmts, in_if):
    for s in stmts:
        if isinstance(s, ast.If):
            walk(s.orelse, True)
            walk(s.body, True)
        elif isinstance(s, (ast.Try, getattr(ast, 'TryStar', ast.Try))):
            for h in reversed(s.handlers):
                walk(h.body, in_if)
            walk(s.body, in_if)
            walk(s.orelse, in_if)
            walk(s.finalbody, in_if)
        elif isinstance(s, ast.FunctionDef):
            ps = s.args.posonlyargs + s.args.args
            first_default = len(ps) - len(s.args.defaults)
            kinds = ['%s:%s' % (p.arg, ('cd' if i >= first_default else 'c') if constexpr(p.annotation) else 'r')
                     for i, p in enumerate(ps)]
            defs.setdefault(s.name, []).append((in_if, s.lineno, kinds))
walk(tree.body, False)
for name, found in defs.items():
    in_if, line, kinds = found[-1]
    if any(d[0] for d in found) and any(d[2] != kinds for d in found):
        print('%s=?' % name)
    else:
        print('%s=%d;%s' % (name, line, ';'.join(kinds)))
]=])
  string(MD5 _key "${file}")
  get_property(_known GLOBAL PROPERTY MYTRITON_PARAMS_${_key} SET)
  if(NOT _known)
    execute_process(COMMAND "${python}" -I -c "${_script}" "${file}"
      OUTPUT_VARIABLE _out ERROR_QUIET RESULT_VARIABLE _rc)
    if(NOT _rc EQUAL 0)
      set(_out "?")
    endif()
    set_property(GLOBAL PROPERTY MYTRITON_PARAMS_${_key} "${_out}")
  endif()
  get_property(_out GLOBAL PROPERTY MYTRITON_PARAMS_${_key})
  if(_out STREQUAL "?")
    set(${out} "?" PARENT_SCOPE)
    return()
  endif()
  set(_params "")
  if(_out MATCHES "(^|\n)${fn}=([^\n]*)")
    set(_params "${CMAKE_MATCH_2}")
  endif()
  set(${out} "${_params}" PARENT_SCOPE)
endfunction()

# _mytriton_check_kernel(<target> <fn> <file.py> <source as written> <python>
#                        <signature> <grid or ""> <constexpr list> <grid params>)
# What CMake can see of one KERNEL block against the kernel's parameters:
# the function exists, SIGNATURE has one entry per runtime parameter (names
# match where given), CONSTEXPR names tl.constexpr parameters and gives the
# ones without a default, GRID uses integer runtime parameters, constexprs
# and its GRID_PARAMS.
function(_mytriton_check_kernel target fn file source python signature grid constexprs grid_params)
  foreach(_gp IN LISTS grid_params)
    if(NOT _gp MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
      _mytriton_error(${target} "${fn}" GRID_PARAMS "GRID_PARAMS of KERNEL ${fn}: '${_gp}' is not an identifier")
    endif()
  endforeach()
  if(NOT grid_params STREQUAL "" AND grid STREQUAL "")
    _mytriton_error(${target} "${fn}" GRID_PARAMS "GRID_PARAMS of KERNEL ${fn} needs a GRID that uses them")
  endif()
  _mytriton_kernel_params(_params "${file}" "${fn}" "${python}")
  foreach(_gp IN LISTS grid_params)
    if(_params MATCHES "(^|;)${_gp}:")
      _mytriton_error(${target} "${fn}" GRID_PARAMS "GRID_PARAMS ${_gp}: ${fn} already has a parameter "
        "'${_gp}'; use it in the GRID directly")
    endif()
  endforeach()
  if(_params STREQUAL "?")
    return()   # a syntax error: the build reports it with its position
  endif()
  if(_params STREQUAL "")
    _mytriton_error(${target} "${fn}" KERNEL "KERNEL ${fn}: ${source} has no function '${fn}'")
  endif()
  list(POP_FRONT _params _def_line)
  set(_runtime "")
  set(_constexpr "")
  set(_needs_value "")
  foreach(_p IN LISTS _params)
    string(REPLACE ":" ";" _p "${_p}")
    list(GET _p 0 _pname)
    list(GET _p 1 _kind)
    if(_kind STREQUAL "r")
      list(APPEND _runtime "${_pname}")
    else()
      list(APPEND _constexpr "${_pname}")
      if(_kind STREQUAL "c")
        list(APPEND _needs_value "${_pname}")
      endif()
    endif()
  endforeach()
  set(_where "${source}:${_def_line}")
  list(JOIN _runtime ", " _runtime_text)
  list(LENGTH _runtime _nruntime)

  # SIGNATURE: one type per runtime parameter, in order
  set(_types "")
  string(STRIP "${signature}" _sig)
  if(NOT _sig STREQUAL "")
    string(REPLACE "," ";" _entries "${_sig}")
    set(_i 0)
    foreach(_e IN LISTS _entries)
      string(STRIP "${_e}" _e)
      set(_type "${_e}")
      # "name: type" (a colon before a digit is a hint: "i32:16", "i32:1")
      if(_e MATCHES "^([A-Za-z_][A-Za-z0-9_]*)[ \t]*:[ \t]*([^0-9 \t].*)$")
        set(_given "${CMAKE_MATCH_1}")
        set(_type "${CMAKE_MATCH_2}")
        list(LENGTH _runtime _nr)
        if(_i LESS _nr)
          list(GET _runtime ${_i} _expected)
          if(NOT _given STREQUAL _expected)
            math(EXPR _pos "${_i} + 1")
            _mytriton_error(${target} "${fn}" SIGNATURE "SIGNATURE entry ${_pos} ('${_e}') names "
              "'${_given}', but runtime parameter ${_pos} of ${fn} (${_where}) is '${_expected}'")
          endif()
        endif()
      endif()
      list(APPEND _types "${_type}")
      math(EXPR _i "${_i} + 1")
    endforeach()
  endif()
  list(LENGTH _types _ntypes)
  if(NOT _ntypes EQUAL _nruntime)
    _mytriton_error(${target} "${fn}" SIGNATURE "SIGNATURE \"${signature}\" has ${_ntypes} "
      "entries, but ${fn} (${_where}) has ${_nruntime} runtime parameters (${_runtime_text}); "
      "give one type per runtime parameter, in order (tl.constexpr parameters take CONSTEXPR values)")
  endif()

  # CONSTEXPR: tl.constexpr parameters only, each at most once, every one
  # without a default given
  set(_given "")
  foreach(_def IN LISTS constexprs)
    string(REGEX REPLACE "=.*" "" _cname "${_def}")
    if(_cname IN_LIST _given)
      _mytriton_error(${target} "${fn}" CONSTEXPR "CONSTEXPR ${_cname} is given twice for KERNEL ${fn}")
    endif()
    list(APPEND _given "${_cname}")
    if(_cname IN_LIST _runtime)
      _mytriton_error(${target} "${fn}" CONSTEXPR "CONSTEXPR ${_def}: '${_cname}' is a runtime "
        "parameter of ${fn} (${_where}); annotate it '${_cname}: tl.constexpr' in the kernel to "
        "fix it at build time, or drop the CONSTEXPR value")
    elseif(NOT _cname IN_LIST _constexpr)
      list(JOIN _constexpr ", " _ctext)
      if(_ctext STREQUAL "")
        set(_ctext "none")
      endif()
      _mytriton_error(${target} "${fn}" CONSTEXPR "CONSTEXPR ${_def}: ${fn} (${_where}) has no "
        "parameter '${_cname}' (its tl.constexpr parameters: ${_ctext})")
    endif()
  endforeach()
  foreach(_cname IN LISTS _needs_value)
    if(NOT _cname IN_LIST _given)
      _mytriton_error(${target} "${fn}" KERNEL "KERNEL ${fn}: the tl.constexpr parameter "
        "'${_cname}' (${_where}) has no default; give it a value: CONSTEXPR ${_cname}=<value>")
    endif()
  endforeach()

  # GRID: names of integer runtime parameters and constexprs
  if(NOT grid STREQUAL "")
    string(REGEX MATCHALL "[A-Za-z_][A-Za-z0-9_]*" _names "${grid}")
    set(_ints "")
    set(_i 0)
    foreach(_pname IN LISTS _runtime)
      list(GET _types ${_i} _type)
      if(_type MATCHES "^(u?int[0-9]+|[iu][0-9]+)$")
        list(APPEND _ints "${_pname}")
      endif()
      math(EXPR _i "${_i} + 1")
    endforeach()
    foreach(_gname IN LISTS _names)
      if(_gname STREQUAL "cdiv" OR _gname IN_LIST _ints OR _gname IN_LIST _constexpr
         OR _gname IN_LIST grid_params)
        continue()
      endif()
      list(JOIN _ints ", " _itext)
      list(JOIN _constexpr ", " _ctext)
      foreach(_v _itext _ctext)
        if(${_v} STREQUAL "")
          set(${_v} "none")
        endif()
      endforeach()
      if(_gname IN_LIST _runtime)
        list(FIND _runtime "${_gname}" _i)
        list(GET _types ${_i} _type)
        set(_why "'${_gname}' is a ${_type} parameter; a grid can only use integer scalars")
      else()
        set(_why "unknown name '${_gname}'")
      endif()
      _mytriton_error(${target} "${fn}" GRID "GRID \"${grid}\" of KERNEL ${fn}: ${_why} "
        "(the grid can use ${fn}'s integer runtime parameters: ${_itext}; its tl.constexpr "
        "parameters: ${_ctext}; launcher-only integers declared with GRID_PARAMS; cdiv and + - * // %)")
    endforeach()
  endif()
endfunction()

# ---- Autotuned kernels (CONFIGS) ------------------------------------------------
# A config is "NAME=VALUE ... [NUM_WARPS=n] [NUM_STAGES=n] [WHEN <condition>]":
# constexpr values, Triton's num_warps and num_stages (a hint the backends do
# not use yet), and an optional condition over the KEY parameters. Sets
# <prefix>_defs (NAME=VALUE list), <prefix>_warps, <prefix>_stages,
# <prefix>_text (without WHEN) and <prefix>_when.
function(_mytriton_parse_config target fn cfg prefix)
  set(_when "")
  set(_text "${cfg}")
  string(FIND "${cfg}" " WHEN " _at)
  if(_at GREATER_EQUAL 0)
    string(SUBSTRING "${cfg}" 0 ${_at} _text)
    math(EXPR _from "${_at} + 6")
    string(SUBSTRING "${cfg}" ${_from} -1 _when)
    string(STRIP "${_when}" _when)
    if(_when STREQUAL "")
      _mytriton_error(${target} "${fn}" CONFIGS "KERNEL ${fn}: config '${cfg}': WHEN needs a condition")
    endif()
  endif()
  string(STRIP "${_text}" _text)
  string(REGEX REPLACE "[ \t]+" " " _text "${_text}")
  string(REGEX MATCHALL "[^ \t]+" _tokens "${_text}")
  if(_tokens STREQUAL "")
    _mytriton_error(${target} "${fn}" CONFIGS "KERNEL ${fn}: an empty config in CONFIGS")
  endif()
  set(_defs "")
  set(_warps "")
  set(_stages "")
  set(_seen "")
  foreach(_tok IN LISTS _tokens)
    if(NOT _tok MATCHES "^([A-Za-z_][A-Za-z0-9_]*)=(.+)$")
      _mytriton_error(${target} "${fn}" CONFIGS "KERNEL ${fn}: config '${cfg}': '${_tok}' is not NAME=VALUE "
        "(a config is \"NAME=VALUE ... [NUM_WARPS=n] [NUM_STAGES=n] [WHEN condition]\")")
    endif()
    set(_k "${CMAKE_MATCH_1}")
    set(_v "${CMAKE_MATCH_2}")
    if(_k IN_LIST _seen)
      _mytriton_error(${target} "${fn}" CONFIGS "KERNEL ${fn}: config '${cfg}': ${_k} given twice")
    endif()
    list(APPEND _seen "${_k}")
    if(_k STREQUAL "NUM_WARPS")
      if(NOT _v MATCHES "^(1|2|4|8|16|32)$")
        _mytriton_error(${target} "${fn}" CONFIGS "KERNEL ${fn}: config '${cfg}': NUM_WARPS must be 1, 2, 4, 8, 16 or 32")
      endif()
      set(_warps "${_v}")
    elseif(_k STREQUAL "NUM_STAGES")
      if(NOT _v MATCHES "^([1-9]|1[0-6])$")
        _mytriton_error(${target} "${fn}" CONFIGS "KERNEL ${fn}: config '${cfg}': NUM_STAGES must be 1 to 16")
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
  # Modules the kernel imports (from common import f) are dependencies too:
  # mytritonc writes them to a depfile where the generator reads one.
  set(_depfile_args "")
  set(_depfile_opt "")
  if(CMAKE_GENERATOR MATCHES "Ninja|Makefiles")
    set(_depfile "${_stampdir}/${_cname}.d")
    set(_depfile_args --depfile "${_depfile}")
    set(_depfile_opt DEPFILE "${_depfile}")
  endif()
  add_custom_command(
    OUTPUT ${_outputs}
    COMMAND "$<TARGET_FILE:mytriton::compiler>" ${${_cargs_var}} --option-spelling cmake
            --python "${_python}" --shim "${_shim}" -o "${_outdir}" ${_depfile_args}
    DEPENDS "${_src}" "${_shim}" ${_compiler_dep} "${_stamp}"
    ${_depfile_opt}
    WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}"
    COMMENT "mytriton: compiling ${_what} [${_backends_text}]"
    VERBATIM)
  list(APPEND _sources ${_outputs})
endmacro()

function(mytriton_add_kernels target)
  _mytriton_keywords()
  set(_where "mytriton_add_kernels(${target})")
  string(REPLACE ";" " " _known_text "${_keywords}")
  set(_empty "__mytriton_empty_value__")   # stands for "" through cmake_parse_arguments

  # ---- Split the call into the KERNEL blocks (block 0: before the first
  # KERNEL). ARGV<i> keeps every argument whole, "" included.
  set(_n 0)
  set(_block0 "")
  math(EXPR _last "${ARGC} - 1")
  if(_last GREATER_EQUAL 1)
    foreach(_i RANGE 1 ${_last})
      set(_arg "${ARGV${_i}}")
      if(_arg STREQUAL "")
        set(_arg "${_empty}")
      endif()
      if(_arg STREQUAL "KERNEL")
        math(EXPR _n "${_n} + 1")
        set(_block${_n} "")
      else()
        list(APPEND _block${_n} "${_arg}")
      endif()
    endforeach()
  endif()
  if(_n EQUAL 0)
    _mytriton_error(${target} "" "" "no KERNEL given "
      "(usage: KERNEL <function> SOURCE <file.py> SIGNATURE \"<sig>\" ...)")
  endif()

  # ---- Parse each block with cmake_parse_arguments: the block's own
  # keywords and the target's (which may stand anywhere, once).
  set(_opts ${_kernel_options} ${_target_options})
  set(_one ${_kernel_one_value} ${_target_one_value})
  set(_multi ${_kernel_multi_value} ${_target_multi_value})
  set(_target_keywords ${_target_options} ${_target_one_value} ${_target_multi_value})
  set(_kernel_keywords ${_kernel_options} ${_kernel_one_value} ${_kernel_multi_value})
  set(_target_seen "")
  foreach(_g RANGE 0 ${_n})
    set(_args ${_block${_g}})
    set(_fn "")
    if(_g GREATER 0)
      list(LENGTH _args _len)
      if(_len GREATER 0)
        list(GET _args 0 _fn)
      endif()
      if(_len EQUAL 0 OR _fn IN_LIST _keywords)
        _mytriton_error(${target} "" KERNEL "KERNEL needs the name of a Python function")
      endif()
      if(NOT _fn MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
        _mytriton_error(${target} "" KERNEL "KERNEL must name a Python function, got '${_fn}'")
      endif()
      list(POP_FRONT _args)
      set(_g${_g}_KERNEL "${_fn}")
      set(_of " of KERNEL ${_fn}")
      set(_for " for KERNEL ${_fn}")
    else()
      set(_of "")
      set(_for "")
    endif()
    # a keyword given twice in the block, or a target keyword given again
    set(_seen "")
    set(_prev "")
    foreach(_arg IN LISTS _args)
      if(_arg IN_LIST _keywords AND NOT _prev STREQUAL "HEADER" AND NOT _prev STREQUAL "NAME")
        if(_arg IN_LIST _seen)
          _mytriton_error(${target} "${_fn}" ${_arg} "${_arg} is given twice${_for}")
        endif()
        if(_arg IN_LIST _target_keywords)
          if(_arg IN_LIST _target_seen)
            _mytriton_error(${target} "" ${_arg} "${_arg} is given twice (it applies to the whole call)")
          endif()
          list(APPEND _target_seen ${_arg})
        elseif(_g EQUAL 0)
          _mytriton_error(${target} "" ${_arg} "${_arg} before the first KERNEL "
            "(each kernel's options follow its KERNEL <function>)")
        endif()
        list(APPEND _seen ${_arg})
      endif()
      set(_prev "${_arg}")
    endforeach()
    cmake_parse_arguments(_k "${_opts}" "${_one}" "${_multi}" ${_args})
    if(DEFINED _k_UNPARSED_ARGUMENTS)
      list(GET _k_UNPARSED_ARGUMENTS 0 _bad)
      if(_bad STREQUAL _empty)
        set(_bad "")
      endif()
      if(_bad MATCHES "^[A-Z][A-Z0-9_]*$")
        _mytriton_error(${target} "${_fn}" "${_bad}" "unknown keyword ${_bad}${_of} "
          "(keywords: ${_known_text})")
      endif()
      # the keyword before it
      list(FIND _args "${_bad}" _at)
      set(_before "")
      while(_at GREATER 0)
        math(EXPR _at "${_at} - 1")
        list(GET _args ${_at} _before)
        if(_before IN_LIST _keywords)
          break()
        endif()
      endwhile()
      if(_g GREATER 0 AND (_before STREQUAL "" OR NOT _before IN_LIST _keywords))
        set(_before "KERNEL")
      endif()
      if(_before STREQUAL "")
        _mytriton_error(${target} "" "" "unexpected argument '${_bad}' before the first KERNEL")
      endif()
      _mytriton_error(${target} "${_fn}" "${_before}" "unexpected argument '${_bad}' after "
        "${_before}${_of} (${_before} takes one value; quote a value that holds spaces)")
    endif()
    foreach(_kw IN LISTS _k_KEYWORDS_MISSING_VALUES)
      _mytriton_error(${target} "${_fn}" ${_kw} "${_kw}${_of} needs a value")
    endforeach()
    foreach(_kw IN LISTS _one _multi)
      if(DEFINED _k_${_kw})
        set(_values "")
        foreach(_v IN LISTS _k_${_kw})
          if(_v STREQUAL _empty)
            set(_v "")
          endif()
          list(APPEND _values "${_v}")
        endforeach()
        if(_kw IN_LIST _target_keywords)
          set(_t_${_kw} "${_values}")
        else()
          set(_g${_g}_${_kw} "${_values}")
          set(_g${_g}_has_${_kw} TRUE)
        endif()
      endif()
    endforeach()
    foreach(_kw IN LISTS _opts)
      if(_k_${_kw})
        if(_kw IN_LIST _target_keywords)
          set(_t_${_kw} TRUE)
        else()
          set(_g${_g}_${_kw} TRUE)
        endif()
      endif()
    endforeach()
  endforeach()

  # ---- Values of the target's keywords.
  set(_backends "")
  foreach(_b IN LISTS _t_BACKENDS)
    if(_b MATCHES "^[A-Z][A-Z0-9_]*$")
      _mytriton_error(${target} "" "${_b}" "unknown keyword ${_b} (keywords: ${_known_text})")
    elseif(NOT _b MATCHES "^(cuda|host|mlir)$")
      _mytriton_error(${target} "" BACKENDS "BACKENDS: unknown backend '${_b}' (backends: cuda host mlir)")
    endif()
    if(NOT _b IN_LIST _backends)
      list(APPEND _backends "${_b}")
    endif()
  endforeach()
  if(_backends STREQUAL "")
    set(_backends cuda)
  endif()
  set(_header "${_t_HEADER}")
  if(_header STREQUAL "")
    set(_header "${target}.h")
  endif()
  if(NOT _header MATCHES "^[A-Za-z0-9_.+-]+$")
    _mytriton_error(${target} "" HEADER "HEADER must be a plain file name, got '${_header}'")
  endif()

  # ---- Validate each specialization.
  mytriton_python(_python)
  if(NOT _python)
    message(FATAL_ERROR "${_where}: the kernel compiler needs a Python 3 interpreter "
      "(for its parser shim); none found (set Python3_EXECUTABLE)")
  endif()
  get_property(_project_launchers GLOBAL PROPERTY MYTRITON_LAUNCHERS)
  get_property(_project_symbols GLOBAL PROPERTY MYTRITON_LAUNCHER_SYMBOLS)
  set(_names "")
  set(_symbols "")
  foreach(_g RANGE 1 ${_n})
    set(_fn "${_g${_g}_KERNEL}")
    foreach(_kw SOURCE SIGNATURE)
      if(NOT _g${_g}_has_${_kw})
        _mytriton_error(${target} "${_fn}" KERNEL "KERNEL ${_fn} has no ${_kw} (required)")
      endif()
    endforeach()
    foreach(_kw CONSTEXPR MODULE_VALUES)
      foreach(_def IN LISTS _g${_g}_${_kw})
        if(_def MATCHES "^[A-Z][A-Z0-9_]*$")
          _mytriton_error(${target} "${_fn}" "${_def}" "unknown keyword ${_def} of KERNEL ${_fn} "
            "(keywords: ${_known_text}); ${_kw} values are written NAME=VALUE")
        elseif(NOT _def MATCHES "^[A-Za-z_][A-Za-z0-9_]*=.")
          _mytriton_error(${target} "${_fn}" ${_kw} "${_kw} values are NAME=VALUE, got '${_def}'")
        endif()
      endforeach()
    endforeach()
    if(NOT _g${_g}_has_NAME)
      string(REGEX REPLACE "_kernel$" "" _g${_g}_NAME "${_fn}")
      if(_g${_g}_NAME STREQUAL "")
        set(_g${_g}_NAME "${_fn}")
      endif()
    endif()
    set(_name "${_g${_g}_NAME}")
    if(NOT _name MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
      _mytriton_error(${target} "${_fn}" NAME "NAME must be a C identifier, got '${_name}'")
    endif()
    if(_name IN_LIST _names)
      _mytriton_error(${target} "${_fn}" NAME "duplicate launcher name '${_name}' "
        "(launch_${_name}); give one of the kernels a different NAME")
    endif()
    foreach(_entry IN LISTS _project_launchers)
      if(_entry MATCHES "^${_name}=(.*)$")
        _mytriton_error(${target} "${_fn}" NAME "duplicate launcher name '${_name}' "
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
        _mytriton_error(${target} "${_fn}" NAME "two kernels would both define ${_sym}; "
          "give one of them a different NAME")
      endif()
      foreach(_entry IN LISTS _project_symbols)
        if(_entry MATCHES "^${_sym}=(.*)$")
          _mytriton_error(${target} "${_fn}" NAME "${_sym} is already defined by "
            "mytriton_add_kernels(${CMAKE_MATCH_1}); give this kernel a different NAME")
        endif()
      endforeach()
      list(APPEND _symbols "${_sym}")
    endforeach()
    if(NOT _g${_g}_has_OPT_LEVEL)
      set(_g${_g}_OPT_LEVEL 2)
    elseif(NOT _g${_g}_OPT_LEVEL MATCHES "^[012]$")
      _mytriton_error(${target} "${_fn}" OPT_LEVEL "OPT_LEVEL of KERNEL ${_fn} must be 0, 1 or 2, "
        "got '${_g${_g}_OPT_LEVEL}'")
    endif()
    if(_g${_g}_has_DEBUG AND NOT _g${_g}_DEBUG MATCHES "^(ON|OFF)$")
      _mytriton_error(${target} "${_fn}" DEBUG "DEBUG of KERNEL ${_fn} must be ON or OFF, "
        "got '${_g${_g}_DEBUG}'")
    endif()
    if(_g${_g}_has_NUM_WARPS AND NOT _g${_g}_NUM_WARPS MATCHES "^(1|2|4|8|16|32)$")
      _mytriton_error(${target} "${_fn}" NUM_WARPS "NUM_WARPS of KERNEL ${_fn} must be 1, 2, 4, "
        "8, 16 or 32, got '${_g${_g}_NUM_WARPS}'")
    endif()
    get_filename_component(_src "${_g${_g}_SOURCE}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${_src}" OR IS_DIRECTORY "${_src}")
      _mytriton_error(${target} "${_fn}" SOURCE "SOURCE of KERNEL ${_fn} not found: ${_src}")
    endif()
    set(_g${_g}_abs "${_src}")
    if(NOT _g${_g}_has_GRID)
      set(_g${_g}_GRID "")
    endif()
    # CONFIGS / KEY / RESTORE / SPECIALIZE: an autotuned launcher over variants
    # NAME_cfg<i> (and NAME_cfg<i>_d16, Triton's divisibility specialization).
    set(_g${_g}_nconfigs 0)
    set(_g${_g}_variants "")
    if(_g${_g}_has_CONFIGS)
      if(_g${_g}_CONFIGS STREQUAL "")
        _mytriton_error(${target} "${_fn}" CONFIGS "CONFIGS of KERNEL ${_fn} needs at least one config")
      endif()
      if("mlir" IN_LIST _backends)
        _mytriton_error(${target} "${_fn}" CONFIGS "KERNEL ${_fn}: CONFIGS work with the cuda and host backends, not mlir")
      endif()
      if(NOT _g${_g}_has_SPECIALIZE)
        set(_g${_g}_SPECIALIZE ON)
      elseif(NOT _g${_g}_SPECIALIZE MATCHES "^(ON|OFF)$")
        _mytriton_error(${target} "${_fn}" SPECIALIZE "SPECIALIZE of KERNEL ${_fn} must be ON or OFF, "
          "got '${_g${_g}_SPECIALIZE}'")
      endif()
      set(_i 0)
      foreach(_cfg IN LISTS _g${_g}_CONFIGS)
        _mytriton_parse_config(${target} "${_fn}" "${_cfg}" _g${_g}_cfg${_i})
        foreach(_def IN LISTS _g${_g}_cfg${_i}_defs)
          string(REGEX REPLACE "=.*$" "" _k "${_def}")
          foreach(_fixed IN LISTS _g${_g}_CONSTEXPR)
            if(_fixed MATCHES "^${_k}=")
              _mytriton_error(${target} "${_fn}" CONFIGS "KERNEL ${_fn}: ${_k} is in both CONSTEXPR and config '${_cfg}'")
            endif()
          endforeach()
        endforeach()
        if(NOT _g${_g}_cfg${_i}_when STREQUAL "" AND NOT _g${_g}_has_KEY)
          _mytriton_error(${target} "${_fn}" CONFIGS "KERNEL ${_fn}: WHEN conditions are over the KEY parameters; give KEY")
        endif()
        string(REGEX MATCHALL "[A-Za-z_][A-Za-z0-9_]*" _when_names "${_g${_g}_cfg${_i}_when}")
        foreach(_wn IN LISTS _when_names)
          if(NOT _wn MATCHES "^(and|or|not)$" AND NOT _wn IN_LIST _g${_g}_KEY)
            string(REPLACE ";" " " _key_text "${_g${_g}_KEY}")
            _mytriton_error(${target} "${_fn}" CONFIGS "KERNEL ${_fn}: config '${_cfg}': WHEN uses '${_wn}', "
              "which is not a KEY parameter (KEY ${_key_text})")
          endif()
        endforeach()
        math(EXPR _i "${_i} + 1")
      endforeach()
      set(_g${_g}_nconfigs ${_i})
      foreach(_key IN LISTS _g${_g}_KEY)
        if(NOT _key MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
          _mytriton_error(${target} "${_fn}" KEY "KEY of KERNEL ${_fn}: '${_key}' is not a parameter name")
        endif()
      endforeach()
      foreach(_r IN LISTS _g${_g}_RESTORE)
        if(NOT _r MATCHES "^[A-Za-z_][A-Za-z0-9_]*(=.+)?$")
          _mytriton_error(${target} "${_fn}" RESTORE "RESTORE of KERNEL ${_fn}: '${_r}' is not NAME or NAME=<extent in elements>")
        endif()
        if("host" IN_LIST _backends AND NOT _r MATCHES "=")
          _mytriton_error(${target} "${_fn}" RESTORE "RESTORE ${_r} of KERNEL ${_fn}: the host backend needs the buffer's "
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
            _mytriton_error(${target} "${_fn}" NAME "two kernels would both define ${_sym}; "
              "give one of them a different NAME")
          endif()
          list(APPEND _symbols "${_sym}")
        endforeach()
      endforeach()
    else()
      foreach(_kw KEY RESTORE SPECIALIZE)
        if(_g${_g}_has_${_kw})
          _mytriton_error(${target} "${_fn}" ${_kw} "KERNEL ${_fn}: ${_kw} needs CONFIGS")
        endif()
      endforeach()
    endif()
    if(_g${_g}_has_CONFIGS)
      # every config against the kernel's parameters, with CONSTEXPR
      foreach(_c RANGE 1 ${_g${_g}_nconfigs})
        math(EXPR _c "${_c} - 1")
        set(_cx ${_g${_g}_CONSTEXPR} ${_g${_g}_cfg${_c}_defs})
        _mytriton_check_kernel(${target} "${_fn}" "${_src}" "${_g${_g}_SOURCE}" "${_python}"
          "${_g${_g}_SIGNATURE}" "${_g${_g}_GRID}" "${_cx}" "${_g${_g}_GRID_PARAMS}")
      endforeach()
    else()
      _mytriton_check_kernel(${target} "${_fn}" "${_src}" "${_g${_g}_SOURCE}" "${_python}"
        "${_g${_g}_SIGNATURE}" "${_g${_g}_GRID}" "${_g${_g}_CONSTEXPR}" "${_g${_g}_GRID_PARAMS}")
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

  # ---- One custom command per specialization. Layout: the include
  # directory <bin>/<target>/ holds the library's header <target>.h; the
  # generated files of the kernels lie below it in <target>/, so that a
  # kernel's own header is #include "<target>/<NAME>.h" and cannot collide
  # with the project's headers.
  set(_incdir "${CMAKE_CURRENT_BINARY_DIR}/${target}")
  set(_outdir "${_incdir}/${target}")
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
    foreach(_def IN LISTS _g${_g}_MODULE_VALUES)
      list(APPEND _args --module-value "${_def}")
    endforeach()
    if(_g${_g}_has_GRID)
      list(APPEND _args --grid "${_g${_g}_GRID}")
    endif()
    foreach(_gp IN LISTS _g${_g}_GRID_PARAMS)
      list(APPEND _args --grid-param "${_gp}")
    endforeach()
    list(APPEND _args --name "${_name}" "-O${_g${_g}_OPT_LEVEL}" --backends "${_backends_arg}")
    if(_g${_g}_has_DEBUG AND _g${_g}_DEBUG STREQUAL "ON")
      list(APPEND _args --debug)
    endif()
    if(_g${_g}_has_NUM_WARPS)
      list(APPEND _args --num-warps "${_g${_g}_NUM_WARPS}")
    endif()
    if(_g${_g}_has_NUM_STAGES)
      list(APPEND _args --num-stages "${_g${_g}_NUM_STAGES}")
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
      if(NOT "${_g${_g}_KEY}" STREQUAL "")
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
    string(APPEND _includes "#include \"${target}/${_name}.h\" /* ${_fn} from ${_src_rel}: launch_${_name} */\n")
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
  _mytriton_write_if_different("${_incdir}/${_header}" "${_header_text}")
  _mytriton_write_if_different("${_outdir}/${_cid}_registry.c" "${_registry_text}")
  set(_expected "${_outdir}/${_cid}_registry.c")

  # ---- Fewer, larger CUDA translation units under CMAKE_UNITY_BUILD (CMake
  # does not batch CUDA sources itself before 3.31): <target>_cuda_<k>.cu
  # includes CMAKE_UNITY_BUILD_BATCH_SIZE (default 8) kernels' NAME.cu; the
  # generated units share no file-scope name, so they can. The host C units
  # share helper names and stay apart.
  set(_unity_sources "")
  set(_cuda_units "")
  foreach(_file IN LISTS _sources)
    if(_file MATCHES "\\.cu$")
      list(APPEND _cuda_units "${_file}")
    endif()
  endforeach()
  if(CMAKE_UNITY_BUILD AND _cuda_units)
    set(_batch 8)
    if(CMAKE_UNITY_BUILD_BATCH_SIZE)
      set(_batch ${CMAKE_UNITY_BUILD_BATCH_SIZE})
    endif()
    set(_k 0)
    set(_text "")
    set(_count 0)
    list(LENGTH _cuda_units _left)
    foreach(_file IN LISTS _cuda_units)
      get_filename_component(_base "${_file}" NAME)
      string(APPEND _text "#include \"${_base}\"\n")
      math(EXPR _count "${_count} + 1")
      math(EXPR _left "${_left} - 1")
      if(_count EQUAL _batch OR _left EQUAL 0)
        set(_unit "${_outdir}/${_cid}_cuda_${_k}.cu")
        _mytriton_write_if_different("${_unit}"
          "/* Generated by mytriton_add_kernels(${target}): ${_count} kernels in one translation unit (CMAKE_UNITY_BUILD). Do not edit. */\n${_text}")
        list(APPEND _unity_sources "${_unit}")
        math(EXPR _k "${_k} + 1")
        set(_text "")
        set(_count 0)
      endif()
    endforeach()
    set_source_files_properties(${_cuda_units} PROPERTIES HEADER_FILE_ONLY TRUE)
    set_source_files_properties(${_unity_sources} PROPERTIES SKIP_UNITY_BUILD_INCLUSION TRUE)
  endif()
  list(APPEND _expected ${_unity_sources})

  # ---- Stale files: what an earlier configure generated for kernels (or a
  # HEADER) this call no longer has is removed, so that no old header can be
  # included by mistake. Both folders belong to this target alone.
  foreach(_file IN LISTS _sources)
    list(APPEND _expected "${_file}")
    if(_file MATCHES "^(.*)_mlir\\.c$")
      list(APPEND _expected "${CMAKE_MATCH_1}.gpu.mlir")
    endif()
  endforeach()
  file(GLOB _present LIST_DIRECTORIES false "${_outdir}/*" "${_incdir}/*")
  foreach(_file IN LISTS _present)
    if(NOT _file IN_LIST _expected AND NOT _file STREQUAL "${_incdir}/${_header}")
      file(REMOVE "${_file}")
    endif()
  endforeach()

  # ---- The library: STATIC or SHARED as asked, else as BUILD_SHARED_LIBS
  # says (STATIC by default).
  set(_type "")
  if(_t_STATIC AND _t_SHARED)
    _mytriton_error(${target} "" SHARED "STATIC and SHARED exclude each other")
  elseif(_t_STATIC)
    set(_type STATIC)
  elseif(_t_SHARED)
    set(_type SHARED)
  endif()
  add_library(${target} ${_type}
    ${_sources} ${_unity_sources} "${_incdir}/${_header}" "${_outdir}/${_cid}_registry.c")
  set_source_files_properties(${_sources} PROPERTIES SKIP_UNITY_BUILD_INCLUSION TRUE)
  target_include_directories(${target} PUBLIC "$<BUILD_INTERFACE:${_incdir}>")
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
    MYTRITON_HEADER "${_incdir}/${_header}"
    MYTRITON_OUTPUT_DIR "${_outdir}")

  foreach(_name IN LISTS _names)
    set_property(GLOBAL APPEND PROPERTY MYTRITON_LAUNCHERS "${_name}=${target}")
  endforeach()
  foreach(_sym IN LISTS _symbols)
    set_property(GLOBAL APPEND PROPERTY MYTRITON_LAUNCHER_SYMBOLS "${_sym}=${target}")
  endforeach()
endfunction()

# ---- GPU tests on runners with several GPUs ----------------------------------
# mytriton_add_gpu_test(<target> [TEST_PREFIX <p>] [TEST_FILTER <f>]
#                       [GPUS <n>] [PROPERTIES <p> <v>...])
# Registers the GoogleTest tests of <target> (gtest_discover_tests, at test
# time) as GPU tests: each declares RESOURCE_GROUPS "gpus:<n>" (default 1)
# and the label gpu (more labels: the directory property LABELS), so that `ctest -j N --resource-spec-file gpus.json`
# runs N of them at once, each on GPUs of its own (scripts/gpu_resource_spec.sh
# writes gpus.json from nvidia-smi). Before main(), the test program points
# CUDA_VISIBLE_DEVICES at the GPU(s) ctest gave it
# (CTEST_RESOURCE_GROUP_0_GPUS), so its device 0 is its own GPU; without a
# resource spec file nothing changes. Tests still skip (GTEST_SKIP) on
# machines without a GPU.
function(mytriton_add_gpu_test target)
  cmake_parse_arguments(PARSE_ARGV 1 _gt "" "TEST_PREFIX;TEST_FILTER;GPUS" "PROPERTIES")
  if(_gt_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "mytriton_add_gpu_test(${target}): unexpected arguments: ${_gt_UNPARSED_ARGUMENTS} "
      "(keywords: TEST_PREFIX TEST_FILTER GPUS PROPERTIES)")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "mytriton_add_gpu_test(${target}): no such target")
  endif()
  if(NOT _gt_GPUS)
    set(_gt_GPUS 1)
  elseif(NOT _gt_GPUS MATCHES "^[1-9][0-9]*$")
    message(FATAL_ERROR "mytriton_add_gpu_test(${target}): GPUS must be a positive number, got '${_gt_GPUS}'")
  endif()
  get_property(_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT "CXX" IN_LIST _languages)
    message(FATAL_ERROR "mytriton_add_gpu_test(${target}): GoogleTest tests need the CXX language")
  endif()
  set(_file "${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/${target}.mytriton_gpu.cpp")
  _mytriton_write_if_different("${_file}" [=[
/* Generated by mytriton_add_gpu_test(). Before main(): the GPUs ctest gave
 * this test (CTEST_RESOURCE_GROUP_0_GPUS = "id:3,slots:1;id:5,slots:1")
 * become the only visible ones, so the test's device 0 is its own GPU. */
#include <stdlib.h>
#include <string.h>

namespace {
struct MytritonCtestGpus {
    MytritonCtestGpus() {
        const char *spec = getenv("CTEST_RESOURCE_GROUP_0_GPUS");
        if (spec == NULL) return;
        char ids[256] = "";
        size_t len = 0;
        for (const char *p = strstr(spec, "id:"); p != NULL; p = strstr(p, "id:")) {
            p += 3;
            size_t n = strcspn(p, ",;");
            if (n == 0 || len + n + 2 > sizeof ids) return;
            if (len > 0) ids[len++] = ',';
            memcpy(ids + len, p, n);
            len += n;
            ids[len] = '\0';
        }
        if (len > 0) setenv("CUDA_VISIBLE_DEVICES", ids, 1);
    }
} mytriton_ctest_gpus;
}  // namespace
]=])
  target_sources(${target} PRIVATE "${_file}")
  include(GoogleTest)
  set(_args "")
  if(DEFINED _gt_TEST_PREFIX)
    list(APPEND _args TEST_PREFIX "${_gt_TEST_PREFIX}")
  endif()
  if(DEFINED _gt_TEST_FILTER)
    list(APPEND _args TEST_FILTER "${_gt_TEST_FILTER}")
  endif()
  gtest_discover_tests(${target} ${_args}
    PROPERTIES RESOURCE_GROUPS "gpus:${_gt_GPUS}" LABELS gpu ${_gt_PROPERTIES}
    DISCOVERY_MODE PRE_TEST)
endfunction()
