import torch

# y'' = -y + x, y(0) = 0, y(1) = 1: find y'(0) by Newton iterations on the shot.
def shoot(slope, n=50):
    h = 1.0 / n
    y, v = torch.zeros(()), slope
    for i in range(n):
        x = i * h
        a1 = -y + x
        y_mid, v_mid = y + 0.5 * h * v, v + 0.5 * h * a1
        a2 = -y_mid + x + 0.5 * h
        y, v = y + h * v_mid, v + h * a2
    return y

s = torch.tensor(0.0, requires_grad=True)
for it in range(5):
    miss = shoot(s) - 1.0
    d, = torch.autograd.grad(miss, s)
    with torch.no_grad():
        s -= miss / d
    print(it, f"{miss.item():+.6e}", round(s.item(), 8))
exact = (1 - 1 + torch.sin(torch.tensor(1.0))) / torch.sin(torch.tensor(1.0))
# exact solution y = x + c sin x with c = 0 so y'(0) = 1
print(round(s.item(), 4), round(exact.item(), 4))
