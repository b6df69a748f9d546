# A small nn.TransformerEncoder classifier as a tutorial builds it: batch_first layers,
# norm_first, gelu activation, a src_key_padding_mask, mean-pooling over unmasked tokens,
# deterministic weights; a few Adam steps, then eval() outputs and parameter names
import torch
import torch.nn as nn

torch.manual_seed(0)
layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0,
                                   activation="gelu", batch_first=True, norm_first=True)
enc = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
head = nn.Linear(8, 3)
with torch.no_grad():
    for i, (n, p) in enumerate(list(enc.named_parameters()) + list(head.named_parameters())):
        p.copy_(0.2 * torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 0.37 + i).view_as(p))
x = torch.sin(torch.arange(3 * 5 * 8, dtype=torch.float64) * 0.1).view(3, 5, 8)
pad = torch.tensor([[False] * 5, [False] * 3 + [True] * 2, [False] * 4 + [True]])
y = torch.tensor([0, 2, 1])
opt = torch.optim.Adam(list(enc.parameters()) + list(head.parameters()), lr=1e-2)


def forward(x):
    h = enc(x, src_key_padding_mask=pad)
    keep = (~pad).unsqueeze(-1).to(h.dtype)
    return head((h * keep).sum(1) / keep.sum(1))


for step in range(3):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(forward(x), y)
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.6f}")
enc.eval()
with torch.no_grad():
    print(forward(x).numpy().round(5))
print(len(list(enc.parameters())), [n for n, _ in enc.named_parameters()][:5])
print(enc.layers[0].self_attn.in_proj_weight.shape, enc.layers[1].norm_first)
