extern "C" __global__
void k110_kernel(int n, float* in1, float* in2, int s3, float f4, float* in5, float* out6) {
    float v0 = (isnan(-2.0f) ? (-2.0f) : (isnan(f4) ? (f4) : ((-2.0f) > (f4) ? (-2.0f) : (f4))));
    float v1 = -(v0);
    int v2 = blockIdx.x;
    out6[v2] = v1;
}
