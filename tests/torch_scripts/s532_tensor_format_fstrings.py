import torch

t = torch.tensor(3.14159265)
print(f"{t:.3f}", "{:.2e}".format(t), format(t, ">10.4f"))
print(f"{t.item():.5f}", f"{t}", f"{t!r}")
i = torch.tensor(42)
print(f"{i:05d}", f"{i:x}", "{}".format(i))
v = torch.tensor([1.0, 2.5])
print(f"{v}", str(v), repr(v))
try:
    print(f"{v:.2f}")
except (TypeError, ValueError, RuntimeError) as e:
    print(type(e).__name__)
b = torch.tensor(True)
print(f"{b}", f"{b.item()}", bool(b), int(torch.tensor(7.9)), float(torch.tensor(2)))
loss = torch.tensor(0.123456789, requires_grad=True) * 1
print(f"loss={loss:.4f}", f"loss={loss.item():.4f}")
print("epoch %d loss %.3f" % (3, loss))
print("%s" % torch.tensor(1.5))
h = torch.tensor(2.0, dtype=torch.float16)
print(f"{h:.1f}", h.item(), torch.tensor(0.1, dtype=torch.float32).item())
print(torch.tensor([1, 2, 3]).__format__(""))
print(f"{torch.tensor(1e-8):g}", f"{torch.tensor(123456789.0):,.1f}")
print(str(torch.Size([2, 3])), f"{torch.Size([4])}", len(torch.Size([1, 2, 3])))
print(f"{torch.float32}", f"{torch.device('cpu')}", str(torch.int64))
