extern "C" __global__
void k46_kernel(int n, float* in1, int trips2, float* in3, float* out4) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 32);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    int v4 = 5;
    int v5 = (v4 * v3);
    int v6 = (-4 + v5);
    float v7 = 0.0f;
    float v16 = v7;
    for (int v8 = 1; v8 < trips2; v8 += 3) {
        int v10 = (v3 + v8);
        bool v12 = (v10 < 42);
        float v13 = (v12 ? in3[v10] : -0.5f);
        float v14 = -(v13);
        float v15 = (v16 + v14);
        v16 = v15;
    }
    bool v18 = (v3 < n);
    float v19 = (v18 ? in1[v3] : -1.75f);
    if (v18) {
        out4[v3] = v19;
    }
}
