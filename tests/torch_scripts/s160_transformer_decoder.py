import torch
import torch.nn as nn


def fill_(model):
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(0.2 * torch.sin(torch.arange(p.numel()) * 0.37 + i).reshape(p.shape))


layer = nn.TransformerDecoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0,
                                   batch_first=True)
fill_(layer)
layer.eval()
tgt = torch.linspace(-1, 1, 2 * 3 * 8).reshape(2, 3, 8)
memory = torch.cos(torch.arange(2 * 5 * 8) * 0.1).reshape(2, 5, 8)
mask = nn.Transformer.generate_square_subsequent_mask(3)
print(mask)
out = layer(tgt, memory, tgt_mask=mask)
print(out.shape, out.grad_fn is not None)
print(out[0].round(decimals=4))
dec = nn.TransformerDecoder(layer, num_layers=2)
fill_(dec)
y = dec(tgt, memory, tgt_mask=mask, tgt_is_causal=True)
print(y.sum().item().__round__(6))
y.pow(2).mean().backward()
print([(n, round(p.grad.norm().item(), 5)) for n, p in dec.named_parameters()][:4])
print(sum(p.numel() for p in dec.parameters()))
