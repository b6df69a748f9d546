# Modules converted to float32 / float16 / bfloat16: parameter dtypes, outputs, mixed-dtype errors
import torch
import torch.nn as nn

m = nn.Linear(2, 2)
nn.init.constant_(m.weight, 0.25)
nn.init.constant_(m.bias, 0.1)
m32 = m.float()
print(m32.weight.dtype, m32(torch.ones(1, 2, dtype=torch.float32)))
try:
    m32(torch.ones(1, 2, dtype=torch.int64))
except RuntimeError as e:
    print("RuntimeError:", e)
mh = nn.Linear(2, 2).to(torch.float16)
print(mh.weight.dtype, mh(torch.ones(1, 2, dtype=torch.float16)).dtype)
m64 = m.double()
print(m64(torch.ones(1, 2)).dtype, next(m64.parameters()).dtype)
h = torch.tensor([0.1, 1000.5, 65504.0], dtype=torch.float16)
print(h, h * 2, h.float(), torch.tensor([1 / 3], dtype=torch.float16))
print((torch.ones(2, dtype=torch.float16) + torch.ones(2, dtype=torch.float32)).dtype)
