extern "C" __global__
void k9_kernel(int n, float* in1, float* in2, float* in3, float* in4, float* out5) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 64);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? in2[v3] : 0.0f);
    float v7 = (isnan(v6) ? (v6) : (isnan(v6) ? (v6) : ((v6) > (v6) ? (v6) : (v6))));
    float v9 = (v5 ? in3[v3] : 2.0f);
    float v10 = (v6 + v9);
    float v11 = (isnan(v7) ? (v7) : (isnan(v10) ? (v10) : ((v7) < (v10) ? (v7) : (v10))));
    float v12 = -(v11);
    if (v5) {
        out5[v3] = v12;
    }
}
