extern "C" __global__
void k92_kernel(int n, float* in1, float* in2, float* in3, float* out4) {
    float v0 = -0.5f;
    int v1 = blockIdx.x;
    int v2 = (v1 * 256);
    int v3 = threadIdx.x;
    int v4 = (v2 + v3);
    bool v6 = (v4 < n);
    float v7 = (v6 ? in3[v4] : 0.5f);
    float v8 = expf(v7);
    float v9 = (v0 - v8);
    float v10 = (isnan(-2.0f) ? (-2.0f) : (isnan(v9) ? (v9) : ((-2.0f) > (v9) ? (-2.0f) : (v9))));
    float v11 = -(v10);
    float v12 = (3.5f - v9);
    float v13 = (v12 / v10);
    float v14 = (v11 + v13);
    if (v6) {
        out4[v4] = v14;
    }
}
