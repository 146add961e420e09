extern "C" __global__
void k81_kernel(int n, float* in1, float* in2, int s3, float* out4) {
    int v0 = -(s3);
    int v1 = ((3) > (v0) ? (3) : (v0));
    int v2 = -(v1);
    float v3 = (v2 + 0.0f);
    int v4 = blockIdx.x;
    out4[v4] = v3;
}
