extern "C" __global__
void k146_kernel(int n, float* in1, float* in2, float* out3) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 64);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? in1[v3] : 0.75f);
    bool v7 = (v3 < -4);
    float v9 = (v5 ? in2[v3] : -2.0f);
    float v10 = (v7 ? v9 : -1.25f);
    float v11 = (v6 - v10);
    float v12 = (isnan(v11) ? (v11) : (isnan(4.0f) ? (4.0f) : ((v11) > (4.0f) ? (v11) : (4.0f))));
    float v13 = (-4.0f * v12);
    if (v5) {
        out3[v3] = v13;
    }
}
