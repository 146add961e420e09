# cmake -DIN=NAME.cu -DOUT=NAME_emu.cpp -P rewrite_launch.cmake
# Rewrites `kernel<<<grid, block, smem, stream>>>(args)` into the
# emulator's `mt_emu::launch(kernel, grid, block, smem, stream)(args)`.
file(READ "${IN}" text)
string(REGEX REPLACE "([A-Za-z_][A-Za-z_0-9]*)<<<([^\n]*)>>>\\(" "mt_emu::launch(\\1, \\2)(" text "${text}")
file(WRITE "${OUT}" "${text}")
