# Formatting tensors into log lines: f-strings with format specs on 0-d tensors, .item(),
# tolist() rounding, str.format, % formatting and numpy printing of .numpy()
import torch

loss = torch.tensor(0.123456789)
acc = torch.tensor(0.875, dtype=torch.float32)
print(f"loss={loss:.4f} acc={acc:.1%} raw={loss}")
print("epoch {:03d} loss {:.3e}".format(7, loss.item()), "%.2f" % loss, "%d" % torch.tensor(5))
print(f"{torch.tensor(3):>5}", f"{torch.tensor(2.5):+.2f}", f"{torch.tensor(True)}", f"{torch.tensor(-0.0)}")
v = torch.tensor([0.1234, 5.6789])
print(f"{v}", str(v), [round(x, 2) for x in v.tolist()], v.numpy().round(2))
try:
    print(f"{v:.2f}")
except (TypeError, ValueError) as e:
    print(type(e).__name__, str(e)[:60])
print("{}".format(torch.ones(2, dtype=torch.int32)), repr(torch.tensor([1.0], dtype=torch.float32)))
print(f"{torch.tensor([7]).item():04d}", f"{torch.tensor(1e-8):g}", f"{torch.tensor(12345.678):,.1f}")
print(str(torch.tensor(1.5, requires_grad=True) * 2), format(torch.tensor(2.0), ""), format(torch.tensor(9)))
