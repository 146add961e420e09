# mytriton_target_warnings(<target>): the project's warning flags on a target
# of its own (never directory-wide), as errors when MYTRITON_WERROR is on.
function(mytriton_target_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANG_AND_ID:C,GNU,Clang>:-Wall -Wextra -Wshadow -Wstrict-prototypes>
    $<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang>:-Wall -Wextra>)
  if(MYTRITON_WERROR)
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANG_AND_ID:C,GNU,Clang>:-Werror>
      $<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang>:-Werror>)
  endif()
  if(MYTRITON_SANITIZE)
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:C,CXX>:-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all>)
    # PUBLIC: a static library's consumers (executables that do not call
    # this function, e.g. CUDA programs linking the runtime) need the
    # sanitizer runtimes at their link too; HOST_LINK keeps the flag off
    # nvcc's device link step.
    target_link_options(${target} PUBLIC $<HOST_LINK:-fsanitize=address$<COMMA>undefined>)
  endif()
endfunction()
