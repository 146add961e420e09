extern "C" __global__
void k49_kernel(int M, int N, float* in2, float* in3, float* in4, float* in5, int s6, float* out7) {
    int tile_i = threadIdx.x / 32;
    int tile_j = threadIdx.x % 32;
    int v0 = blockIdx.x;
    int v1 = (v0 * 2);
    int v3 = tile_i;
    int v4 = (v1 + v3);
    int v5 = (v4 * N);
    int v6 = blockIdx.y;
    int v7 = (v6 * 32);
    int v9 = tile_j;
    int v10 = (v7 + v9);
    int v11 = (v5 + v10);
    bool v13 = (v4 < M);
    bool v14 = (v10 < N);
    bool v15 = (v13 && v14);
    float v16 = (v15 ? in3[v11] : -1.25f);
    if (v15) {
        out7[v11] = v16;
    }
}
