extern "C" __global__
void k77_kernel(int M, int N, float* in2, float* in3, float* in4, float* out5) {
    int tile_i = threadIdx.x / 8;
    int tile_j = threadIdx.x % 8;
    int v0 = blockIdx.y;
    int v1 = (v0 * 8);
    int v3 = tile_j;
    int v4 = (v1 + v3);
    bool v6 = (v4 < N);
    float v7 = (v6 ? in4[v4] : -1.5f);
    int v8 = blockIdx.x;
    int v9 = (v8 * 4);
    int v11 = tile_i;
    int v12 = (v9 + v11);
    int v13 = (v12 * N);
    int v14 = (v13 + v4);
    bool v16 = (v12 < M);
    bool v18 = (v16 && v6);
    float v19 = (v18 ? in2[v14] : -0.5f);
    float v20 = (isnan(v7) ? (v7) : (isnan(v19) ? (v19) : ((v7) < (v19) ? (v7) : (v19))));
    float v21 = -(v20);
    if (v18) {
        out5[v14] = v21;
    }
}
