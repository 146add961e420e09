extern "C" __global__
void k72_kernel(int M, int N, float* in2, float* in3, float* in4, float* out5) {
    int tile_i = threadIdx.x / 16;
    int tile_j = threadIdx.x % 16;
    int v0 = blockIdx.y;
    int v1 = (v0 * 16);
    int v3 = tile_j;
    int v4 = (v1 + v3);
    bool v5 = (v4 < 3);
    int v6 = blockIdx.x;
    int v7 = (v6 * 8);
    int v9 = tile_i;
    int v10 = (v7 + v9);
    int v11 = (v10 * N);
    int v12 = (v11 + v4);
    bool v14 = (v10 < M);
    bool v15 = (v4 < N);
    bool v16 = (v14 && v15);
    float v17 = (v16 ? in2[v12] : 0.5f);
    float v20 = (v15 ? in4[v4] : 1.0f);
    float v21 = (v5 ? v17 : v20);
    if (v16) {
        out5[v12] = v21;
    }
}
