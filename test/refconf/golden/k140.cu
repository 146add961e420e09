extern "C" __global__
void k140_kernel(int M, int N, float* in2, float* in3, float f4, float* out5) {
    int tile_i = threadIdx.x / 8;
    int tile_j = threadIdx.x % 8;
    int v0 = blockIdx.y;
    int v1 = (v0 * 8);
    int v3 = tile_j;
    int v4 = (v1 + v3);
    int v5 = blockIdx.x;
    int v6 = (v5 * 16);
    int v8 = tile_i;
    int v9 = (v6 + v8);
    int v10 = (v9 * N);
    int v11 = (v10 + v4);
    bool v13 = (v9 < M);
    bool v14 = (v4 < N);
    bool v15 = (v13 && v14);
    float v16 = (v15 ? in2[v11] : 1.5f);
    float v17 = expf(v16);
    float v18 = (v4 - v17);
    if (v15) {
        out5[v11] = v18;
    }
}
