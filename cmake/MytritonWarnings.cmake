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
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
  endif()
endfunction()
