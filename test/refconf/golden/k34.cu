extern "C" __global__
void k34_kernel(int M, int N, float* in2, float* in3, float* in4, float* out5) {
    int tile_i = threadIdx.x / 16;
    int tile_j = threadIdx.x % 16;
    int v0 = blockIdx.x;
    int v1 = (v0 * 8);
    int v3 = tile_i;
    int v4 = (v1 + v3);
    int v5 = (v4 * N);
    int v6 = blockIdx.y;
    int v7 = (v6 * 16);
    int v9 = tile_j;
    int v10 = (v7 + v9);
    int v11 = (v5 + v10);
    int v12 = -(v11);
    int v13 = (v12 * -4);
    float v14 = (v13 + 0.0f);
    bool v16 = (v4 < M);
    bool v17 = (v10 < N);
    bool v18 = (v16 && v17);
    if (v18) {
        out5[v11] = v14;
    }
}
