extern "C" __global__
void loads_then_stores_kernel(float* x, float* y, float* out) {
    int v0 = threadIdx.x;
    float v2 = (true ? x[v0] : 0.0f);
    float v4 = (true ? y[v0] : 0.0f);
    float v5 = (v2 * v4);
    float v6 = (v5 + 1.0f);
    float v7 = (v2 - v4);
    float v8 = (isnan(v6) ? (v6) : (isnan(v7) ? (v7) : ((v6) > (v7) ? (v6) : (v7))));
    out[v0] = v8;
}
