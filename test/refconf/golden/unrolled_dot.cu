extern "C" __global__
void unrolled_dot_kernel(float* a, float* b, float* out) {
    float v1 = (true ? a[0] : 0.0f);
    float v3 = (true ? b[0] : 0.0f);
    float v4 = (v1 * v3);
    float v5 = (0.0f + v4);
    float v7 = (true ? a[1] : 0.0f);
    float v9 = (true ? b[1] : 0.0f);
    float v10 = (v7 * v9);
    float v11 = (v5 + v10);
    float v13 = (true ? a[2] : 0.0f);
    float v15 = (true ? b[2] : 0.0f);
    float v16 = (v13 * v15);
    float v17 = (v11 + v16);
    out[0] = v17;
}
