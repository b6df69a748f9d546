import torch


class BoundedParam(torch.nn.Module):
    """A parameter constrained to (low, high) via a sigmoid reparametrisation."""

    def __init__(self, init, low, high):
        super().__init__()
        self.low, self.high = low, high
        p = (init - low) / (high - low)
        self.raw = torch.nn.Parameter(torch.logit(torch.tensor(p)))

    def forward(self):
        return self.low + (self.high - self.low) * torch.sigmoid(self.raw)

    def extra_repr(self):
        return f"low={self.low}, high={self.high}"


class Decay(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.amp = BoundedParam(1.0, 0.0, 5.0)
        self.rate = BoundedParam(0.5, 0.01, 2.0)
        self.offset = BoundedParam(0.0, -1.0, 1.0)

    def forward(self, t):
        return self.amp() * torch.exp(-self.rate() * t) + self.offset()


t = torch.linspace(0, 5, 30)
y = 2.5 * torch.exp(-0.8 * t) + 0.3 + 0.01 * torch.cos(7 * t)
model = Decay()
print(model)
opt = torch.optim.Adam(model.parameters(), lr=0.1)
for i in range(300):
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(model(t), y)
    loss.backward()
    opt.step()
print(round(loss.item(), 7))
print({name: round(m().item(), 3) for name, m in model.named_children()})
print([round(p.item(), 3) for p in model.parameters()])
print(model.rate.raw.grad is not None, model.rate().requires_grad)
sd = model.state_dict()
print(list(sd.keys()), sd["amp.raw"].shape)
