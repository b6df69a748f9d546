# Mixed-precision boilerplate left in CPU runs: autocast(enabled=False), GradScaler(enabled=False),
# scaler.scale/step/update/unscale_, clip after unscale, torch.backends flags, set_float32_matmul_precision
import warnings
import torch
import torch.nn as nn

warnings.simplefilter("ignore")
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
use_amp = device.type == "cuda"
torch.set_float32_matmul_precision("high")
print(torch.get_float32_matmul_precision(), use_amp)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1)).to(device)
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).view_as(p) * (i + 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
scaler = torch.amp.GradScaler("cuda", enabled=use_amp)
print(scaler.is_enabled(), scaler.get_scale() if use_amp else 1.0)
x = torch.linspace(-1, 1, 12).view(4, 3).to(device)
y = torch.tensor([[1.0], [0.0], [1.0], [0.5]], device=device)
for step in range(5):
    opt.zero_grad(set_to_none=True)
    with torch.autocast(device_type=device.type, dtype=torch.bfloat16, enabled=use_amp):
        out = model(x)
        loss = nn.functional.mse_loss(out, y)
    scaler.scale(loss).backward()
    scaler.unscale_(opt)
    gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    scaler.step(opt)
    scaler.update()
    print(f"step {step} loss {loss.item():.6f} grad norm {gn.item():.6f} dtype {out.dtype}")
with torch.autocast("cpu", enabled=False):
    print(model(x).dtype, torch.is_autocast_enabled("cpu") if hasattr(torch, "is_autocast_enabled") else False)
print(sorted(scaler.state_dict().keys()) if use_amp else {}, scaler.state_dict() == {})
