# dtype helpers: to_complex / to_real for every float dtype (half included), is_complex,
# itemsize of the complex dtypes, and finfo of half
import torch

for dt in [torch.float16, torch.float32, torch.float64, torch.bfloat16]:
    print(dt, dt.to_complex(), dt.to_real(), dt.is_floating_point, dt.itemsize)
for dt in [torch.complex32, torch.complex64, torch.complex128]:
    print(dt, dt.to_real(), dt.to_complex(), dt.is_complex, dt.itemsize)
for dt in [torch.int32, torch.bool]:
    try:
        dt.to_complex()
    except RuntimeError as e:
        print(e)
print(torch.finfo(torch.float16).max, torch.finfo(torch.float16).eps, torch.chalf is torch.complex32, torch.cfloat, torch.cdouble)
