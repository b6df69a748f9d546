# nn.Transformer for a copy task as the seq2seq tutorial sets it up: batch_first model,
# generate_square_subsequent_mask for the decoder, key padding masks for source and
# target, tgt_is_causal, shifted-right decoder input, a few Adam steps and eval greedy
import torch
import torch.nn as nn

V, D, PAD, BOS = 6, 8, 0, 1
model = nn.Transformer(d_model=D, nhead=2, num_encoder_layers=1, num_decoder_layers=1,
                       dim_feedforward=16, dropout=0.0, batch_first=True)
emb = nn.Embedding(V, D, padding_idx=PAD)
out_proj = nn.Linear(D, V)
params = list(model.parameters()) + list(emb.parameters()) + list(out_proj.parameters())
with torch.no_grad():
    for i, p in enumerate(params):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 0.41 + i).view_as(p) * 0.3)
src = torch.tensor([[2, 3, 4, 5], [3, 4, 5, PAD]])
tgt_in = torch.tensor([[BOS, 2, 3, 4], [BOS, 3, 4, 5]])
tgt_out = torch.tensor([[2, 3, 4, 5], [3, 4, 5, PAD]])
causal = nn.Transformer.generate_square_subsequent_mask(4)
print(causal)
opt = torch.optim.Adam(params, lr=0.01)
for step in range(3):
    h = model(emb(src), emb(tgt_in), tgt_mask=causal, src_key_padding_mask=src == PAD,
              tgt_key_padding_mask=tgt_in == PAD, memory_key_padding_mask=src == PAD,
              tgt_is_causal=True)
    logits = out_proj(h)
    loss = nn.functional.cross_entropy(logits.reshape(-1, V), tgt_out.reshape(-1), ignore_index=PAD)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.6f}")
model.eval()
with torch.no_grad():
    memory = model.encoder(emb(src), src_key_padding_mask=src == PAD)
    ys = torch.full((2, 1), BOS)
    for _ in range(3):
        m = nn.Transformer.generate_square_subsequent_mask(ys.shape[1])
        h = model.decoder(emb(ys), memory, tgt_mask=m, memory_key_padding_mask=src == PAD)
        ys = torch.cat([ys, out_proj(h[:, -1]).argmax(-1, keepdim=True)], 1)
print(ys.tolist(), memory.shape)
print(sum(p.numel() for p in model.parameters()), model.encoder.layers[0].self_attn.batch_first)
