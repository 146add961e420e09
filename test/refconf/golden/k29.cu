extern "C" __global__
void k29_kernel(int n, float* in1, float* in2, float* in3, int s4, float f5, int trips6, float* in7, float* out8) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 64);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    float v4 = 0.0f;
    float v9 = v4;
    for (int v5 = 0; v5 < trips6; v5 += 1) {
        int v7 = ((3) < (v5) ? (3) : (v5));
        float v8 = (v9 + v7);
        v9 = v8;
    }
    bool v11 = (v3 < n);
    float v12 = (v11 ? in3[v3] : 2.0f);
    if (v11) {
        out8[v3] = v12;
    }
}
