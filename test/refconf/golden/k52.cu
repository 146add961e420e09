extern "C" __global__
void k52_kernel(int M, int N, float* in2, float* in3, float* in4, float* out5) {
    int tile_i = threadIdx.x / 8;
    int tile_j = threadIdx.x % 8;
    int v0 = blockIdx.x;
    int v1 = (v0 * 4);
    int v3 = tile_i;
    int v4 = (v1 + v3);
    int v5 = (v4 * N);
    int v6 = blockIdx.y;
    int v7 = (v6 * 8);
    int v9 = tile_j;
    int v10 = (v7 + v9);
    int v11 = (v5 + v10);
    int v12 = ((3) < (v11) ? (3) : (v11));
    float v13 = (v12 + 0.0f);
    bool v15 = (v4 < M);
    bool v16 = (v10 < N);
    bool v17 = (v15 && v16);
    if (v17) {
        out5[v11] = v13;
    }
}
