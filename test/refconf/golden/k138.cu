extern "C" __global__
void k138_kernel(int M, int N, float* in2, float* in3, float* in4, float* out5) {
    int tile_i = threadIdx.x / 32;
    int tile_j = threadIdx.x % 32;
    int v0 = blockIdx.y;
    int v1 = (v0 * 32);
    int v3 = tile_j;
    int v4 = (v1 + v3);
    bool v6 = (v4 < N);
    float v7 = (v6 ? in4[v4] : -1.75f);
    float v8 = (-1.0f + v7);
    int v9 = blockIdx.x;
    int v10 = (v9 * 16);
    int v12 = tile_i;
    int v13 = (v10 + v12);
    bool v15 = (v13 < M);
    float v16 = (v15 ? in3[v13] : 1.5f);
    float v17 = (v8 * v16);
    float v18 = (v17 * v4);
    int v19 = (v13 * N);
    int v20 = (v19 + v4);
    bool v24 = (v15 && v6);
    if (v24) {
        out5[v20] = v18;
    }
}
