extern "C" __global__
void k4_kernel(int n, float* in1, float* in2, int s3, int s4, float* out5) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 32);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    int v4 = ((3) < (v3) ? (3) : (v3));
    int v5 = (v4 * -4);
    float v6 = (v5 + 0.0f);
    bool v8 = (v3 < n);
    if (v8) {
        out5[v3] = v6;
    }
}
