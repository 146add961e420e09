extern "C" __global__
void k1_kernel(int M, int N, float* in2, float* in3, float* out4) {
    int tile_i = threadIdx.x / 8;
    int tile_j = threadIdx.x % 8;
    int v0 = blockIdx.x;
    int v1 = (v0 * 2);
    int v3 = tile_i;
    int v4 = (v1 + v3);
    bool v6 = (v4 < M);
    float v7 = (v6 ? in3[v4] : 1.25f);
    float v8 = (isnan(v7) ? (v7) : (isnan(-2.25f) ? (-2.25f) : ((v7) < (-2.25f) ? (v7) : (-2.25f))));
    float v9 = expf(v8);
    float v10 = (v9 - 2.25f);
    float v11 = expf(v10);
    float v12 = 3.25f;
    float v13 = (isnan(v11) ? (v11) : (isnan(v12) ? (v12) : ((v11) > (v12) ? (v11) : (v12))));
    int v14 = (v4 * N);
    int v15 = blockIdx.y;
    int v16 = (v15 * 8);
    int v18 = tile_j;
    int v19 = (v16 + v18);
    int v20 = (v14 + v19);
    bool v23 = (v19 < N);
    bool v24 = (v6 && v23);
    if (v24) {
        out4[v20] = v13;
    }
}
