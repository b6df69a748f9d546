# Character-level LSTM language model on a short text: vocabulary from set(), truncated
# BPTT with hidden state detached between chunks, Adam, greedy generation from a prompt
import torch
import torch.nn as nn

text = "hello world, hello tapes. the world of tapes is small. hello again world."
chars = sorted(set(text))
stoi = {c: i for i, c in enumerate(chars)}
itos = {i: c for c, i in stoi.items()}
data = torch.tensor([stoi[c] for c in text], dtype=torch.long)
V = len(chars)
print("vocab", V, "length", len(data))


class CharLSTM(nn.Module):
    def __init__(self, vocab, emb=8, hidden=16, layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.lstm = nn.LSTM(emb, hidden, num_layers=layers, batch_first=True)
        self.fc = nn.Linear(hidden, vocab)

    def forward(self, x, state=None):
        out, state = self.lstm(self.embed(x), state)
        return self.fc(out), state


model = CharLSTM(V)
with torch.no_grad():
    for i, (n, p) in enumerate(model.named_parameters()):
        p.copy_(0.3 * torch.cos(torch.arange(p.numel()) * 0.37 + i).reshape(p.shape))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
loss_fn = nn.CrossEntropyLoss()
seq_len = 12
for epoch in range(4):
    state = None
    losses = []
    for start in range(0, len(data) - seq_len - 1, seq_len):
        x = data[start:start + seq_len].unsqueeze(0)
        y = data[start + 1:start + seq_len + 1].unsqueeze(0)
        if state is not None:
            state = tuple(s.detach() for s in state)
        logits, state = model(x, state)
        loss = loss_fn(logits.view(-1, V), y.view(-1))
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        opt.step()
        losses.append(loss.item())
    print(f"epoch {epoch} mean loss {sum(losses) / len(losses):.5f} chunks {len(losses)}")


@torch.no_grad()
def generate(prompt, n):
    model.eval()
    x = torch.tensor([[stoi[c] for c in prompt]])
    logits, state = model(x)
    out = prompt
    nxt = logits[0, -1].argmax().item()
    for _ in range(n):
        out += itos[nxt]
        logits, state = model(torch.tensor([[nxt]]), state)
        nxt = logits[0, -1].argmax().item()
    return out


print(repr(generate("hel", 20)))
h, c = model(data[:5].unsqueeze(0))[1]
print(h.shape, c.shape, h[:, 0, :3].detach().numpy().round(4))
