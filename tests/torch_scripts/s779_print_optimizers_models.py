# What people print while debugging: optimizers, state_dict keys and shapes, a model with a
# custom extra_repr, parameter tables, loss modules, distributions and scheduler state
import torch
import torch.nn as nn


class Scale(nn.Module):
    def __init__(self, factor):
        super().__init__()
        self.factor = factor
        self.register_buffer("offset", torch.zeros(2))

    def forward(self, x):
        return x * self.factor + self.offset

    def extra_repr(self):
        return f"factor={self.factor}"


model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), Scale(0.5), nn.Linear(3, 2, bias=False))
print(model)
for k, v in model.state_dict().items():
    print(f"{k:12s} {tuple(v.shape)} {v.dtype}")
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, weight_decay=5e-4)
print(opt)
print(torch.optim.Adam(model.parameters(), lr=1e-3))
print(torch.optim.AdamW([{"params": model[0].parameters()}, {"params": model[3].parameters(), "lr": 0.1}]))
print(nn.CrossEntropyLoss(label_smoothing=0.1), nn.MSELoss(reduction="sum"), nn.BCEWithLogitsLoss())
print(nn.Conv2d(3, 8, kernel_size=3, stride=2, padding=1, bias=False), nn.MaxPool2d(2), nn.Dropout(p=0.25))
print(nn.LSTM(4, 8, num_layers=2, batch_first=True, dropout=0.1), nn.Embedding(10, 3, padding_idx=0))
print(nn.BatchNorm1d(4), nn.LayerNorm((4,), elementwise_affine=False), nn.GELU(approximate="tanh"))
print(nn.Upsample(scale_factor=2, mode="nearest"), nn.Flatten(), nn.Identity(), nn.Softmax(dim=-1))
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.1)
print({k: v for k, v in sched.state_dict().items() if k != "_get_lr_called_within_step"})
print(torch.distributions.Normal(torch.tensor([0.0]), torch.tensor([1.0])))
print(torch.distributions.Categorical(probs=torch.tensor([0.25, 0.75])))
print(torch.Size([2, 3]), torch.float32, torch.device("cpu"), torch.tensor([1, 2]).shape)
print(nn.Parameter(torch.tensor([1.0, 2.0])))
print(nn.ModuleList([nn.Linear(1, 1), nn.Tanh()]), nn.ModuleDict({"a": nn.ReLU()}))
