extern "C" __global__
void k95_kernel(int M, int N, float* in2, float* out3) {
    int tile_i = threadIdx.x / 16;
    int tile_j = threadIdx.x % 16;
    int v0 = blockIdx.x;
    int v1 = (v0 * 16);
    int v3 = tile_i;
    int v4 = (v1 + v3);
    int v5 = (v4 * N);
    int v6 = blockIdx.y;
    int v7 = (v6 * 16);
    int v9 = tile_j;
    int v10 = (v7 + v9);
    int v11 = (v5 + v10);
    int v12 = -(v11);
    bool v14 = (v4 < M);
    bool v15 = (v10 < N);
    bool v16 = (v14 && v15);
    float v17 = (v16 ? in2[v11] : -1.0f);
    bool v18 = (v12 < v17);
    int v19 = (v18 ? 1 : 0);
    float v20 = (v19 + 0.0f);
    if (v16) {
        out3[v11] = v20;
    }
}
