# Reproducibility/setup boilerplate copied at the top of notebooks, then a tiny model on the device
import os
import random
import numpy as np
import torch
import torch.nn as nn


def seed_everything(seed=42):
    random.seed(seed)
    os.environ["PYTHONHASHSEED"] = str(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.cuda.manual_seed(seed)
    torch.cuda.manual_seed_all(seed)
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False


seed_everything()
print(torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print(device, device.type, str(device) == "cpu", torch.device("cpu") == device)
use_mps = hasattr(torch.backends, "mps") and torch.backends.mps.is_available()
print(use_mps, torch.cuda.device_count())
torch.backends.cuda.matmul.allow_tf32 = True
torch.backends.cudnn.allow_tf32 = True
print(torch.backends.cudnn.enabled in (True, False))
g = torch.Generator().manual_seed(123)
print(g.initial_seed(), torch.initial_seed())
a = torch.rand(3, generator=torch.Generator().manual_seed(7))
b = torch.rand(3, generator=torch.Generator().manual_seed(7))
print(torch.equal(a, b), a.shape)
torch.manual_seed(1); r1 = torch.randn(4)
torch.manual_seed(1); r2 = torch.randn(4)
print(torch.equal(r1, r2))
state = torch.get_rng_state()
u1 = torch.rand(2)
torch.set_rng_state(state)
print(torch.equal(u1, torch.rand(2)))
model = nn.Linear(3, 1).to(device)
print(next(model.parameters()).device, next(model.parameters()).is_cuda)
x = torch.ones(2, 3, device=device)
print(x.device, x.to("cpu").device, x.cpu().is_cuda, model(x).shape)
if torch.cuda.is_available():
    print("cuda")
else:
    print("Running on the CPU; threads >= 1:", torch.get_num_threads() >= 1)
print(torch.float32.is_floating_point, torch.get_default_dtype() in (torch.float32, torch.float64))
print(x.pin_memory().is_pinned() if torch.cuda.is_available() else False)
model = model.to(device=device, dtype=torch.float32)
print(model.weight.dtype, model(x.float()).dtype)
