import torch
import torch.nn as nn

torch.manual_seed(0)
layer = nn.TransformerDecoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0,
                                   batch_first=True)
with torch.no_grad():
    for i, (name, p) in enumerate(sorted(layer.named_parameters())):
        n = p.numel()
        p.copy_(torch.sin(torch.arange(n, dtype=p.dtype) * 0.37 + i).reshape(p.shape) * 0.3)
print([n for n, _ in layer.named_parameters()][:6])
tgt = torch.cos(torch.arange(2 * 4 * 8.0)).reshape(2, 4, 8)
memory = torch.sin(torch.arange(2 * 5 * 8.0) * 0.5).reshape(2, 5, 8)
causal = nn.Transformer.generate_square_subsequent_mask(4)
print(causal)
mem_pad = torch.tensor([[False, False, False, True, True], [False] * 5])
layer.eval()
out = layer(tgt, memory, tgt_mask=causal, memory_key_padding_mask=mem_pad)
print(out.shape)
print(out[0].round(decimals=4))
out2 = layer(tgt, memory, tgt_is_causal=True, tgt_mask=causal)
print(out2.sum().item().__round__(6))
first = layer(tgt[:, :1], memory)
print(torch.allclose(first[:, 0], layer(tgt, memory, tgt_mask=causal)[:, 0]))
layer.train()
tgt_req = tgt.clone().requires_grad_()
layer(tgt_req, memory, tgt_mask=causal).pow(2).mean().backward()
print(tgt_req.grad.abs().sum().round(decimals=5))
pre = nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, norm_first=True, batch_first=True)
pre.load_state_dict(layer.state_dict())
print(pre(tgt, memory).sub(layer(tgt, memory)).abs().max().item() > 0)
