extern "C" __global__
void k87_kernel(int M, int N, float* in2, float* in3, float* out4) {
    int tile_i = threadIdx.x / 8;
    int tile_j = threadIdx.x % 8;
    int v0 = blockIdx.x;
    int v1 = (v0 * 16);
    int v3 = tile_i;
    int v4 = (v1 + v3);
    int v5 = (v4 * v4);
    int v6 = (v4 * N);
    int v7 = blockIdx.y;
    int v8 = (v7 * 8);
    int v10 = tile_j;
    int v11 = (v8 + v10);
    int v12 = (v6 + v11);
    int v13 = -(v12);
    int v14 = ((v5) > (v13) ? (v5) : (v13));
    int v15 = ((v14) > (0) ? (v14) : (0));
    float v16 = (v15 + 0.0f);
    bool v18 = (v4 < M);
    bool v19 = (v11 < N);
    bool v20 = (v18 && v19);
    if (v20) {
        out4[v12] = v16;
    }
}
