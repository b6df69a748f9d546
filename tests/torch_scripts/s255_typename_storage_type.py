import warnings

import torch

warnings.simplefilter("ignore")
for t in (torch.ones(2), torch.ones(2, dtype=torch.float32), torch.tensor([1, 2]),
          torch.tensor([True]), torch.ones(1, dtype=torch.float16)):
    print(torch.typename(t), t.storage_type().__name__, t.type())
print(torch.typename(3), torch.typename("s"), torch.typename(torch.nn.Parameter))
s = torch.ones(3).storage()
print(torch.typename(s), torch.is_storage(s), type(s).__name__)
print(torch.DoubleStorage, torch.FloatStorage, torch.LongStorage)
