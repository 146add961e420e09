extern "C" __global__
void k94_kernel(int n, float* in1, float* in2, int s3, int s4, float* out5) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 256);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? in2[v3] : -2.0f);
    bool v7 = (s4 < v6);
    int v8 = -(v3);
    int v9 = (v7 ? v8 : 4);
    float v10 = (v9 + 0.0f);
    if (v5) {
        out5[v3] = v10;
    }
}
