# TransformerDecoderLayer eval with tgt_mask, memory key padding: shapes and causality check
import torch
import torch.nn as nn

torch.manual_seed(0)
dec = nn.TransformerDecoderLayer(d_model=4, nhead=2, dim_feedforward=8, dropout=0.0, batch_first=True)
dec.eval()
tgt = torch.randn(1, 3, 4)
mem = torch.randn(1, 5, 4)
mask = nn.Transformer.generate_square_subsequent_mask(3)
out = dec(tgt, mem, tgt_mask=mask, memory_key_padding_mask=torch.tensor([[False, False, False, True, True]]))
print(out.shape)
tgt2 = tgt.clone()
tgt2[0, 2] = 100.0
out2 = dec(tgt2, mem, tgt_mask=mask, memory_key_padding_mask=torch.tensor([[False, False, False, True, True]]))
print(torch.allclose(out[0, :2], out2[0, :2]), torch.allclose(out[0, 2], out2[0, 2]))
mem2 = mem.clone()
mem2[0, 4] = -50.0
out3 = dec(tgt, mem2, tgt_mask=mask, memory_key_padding_mask=torch.tensor([[False, False, False, True, True]]))
print(torch.allclose(out, out3))
