import torch

model = torch.nn.Linear(3, 2)
with torch.no_grad():
    model.weight.fill_(0.5)
    model.bias.zero_()
with torch.inference_mode():
    out = model(torch.ones(1, 3))
print(out, out.is_inference(), out.requires_grad)
fixed = out.clone()  # (PyTorch 2.13 may leave a refused op half-applied: clone first)
for op in ("add_", "mul_", "zero_", "clamp_"):
    try:
        getattr(out, op)(*((1.0,) if op in ("add_", "mul_") else (0.0,) if op == "clamp_" else ()))
    except RuntimeError as e:
        print(op, "refused:", str(e)[:45])
try:
    out.requires_grad_()
except RuntimeError as e:
    print("requires_grad_:", str(e)[:50])
fixed.add_(1.0)
print(fixed, fixed.is_inference())
