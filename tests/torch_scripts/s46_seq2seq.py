import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

SOS_token, EOS_token, PAD = 0, 1, 2
MAX_LENGTH = 6


class EncoderRNN(nn.Module):
    def __init__(self, input_size, hidden_size, dropout_p=0.1):
        super(EncoderRNN, self).__init__()
        self.hidden_size = hidden_size
        self.embedding = nn.Embedding(input_size, hidden_size, padding_idx=PAD)
        self.gru = nn.GRU(hidden_size, hidden_size, batch_first=True)
        self.dropout = nn.Dropout(dropout_p)

    def forward(self, input, lengths):
        embedded = self.dropout(self.embedding(input))
        packed = pack_padded_sequence(embedded, lengths, batch_first=True, enforce_sorted=False)
        output, hidden = self.gru(packed)
        output, _ = pad_packed_sequence(output, batch_first=True, total_length=input.size(1))
        return output, hidden


class BahdanauAttention(nn.Module):
    def __init__(self, hidden_size):
        super(BahdanauAttention, self).__init__()
        self.Wa = nn.Linear(hidden_size, hidden_size)
        self.Ua = nn.Linear(hidden_size, hidden_size)
        self.Va = nn.Linear(hidden_size, 1)

    def forward(self, query, keys):
        scores = self.Va(torch.tanh(self.Wa(query) + self.Ua(keys)))
        scores = scores.squeeze(2).unsqueeze(1)
        weights = F.softmax(scores, dim=-1)
        context = torch.bmm(weights, keys)
        return context, weights


class AttnDecoderRNN(nn.Module):
    def __init__(self, hidden_size, output_size, dropout_p=0.1):
        super(AttnDecoderRNN, self).__init__()
        self.embedding = nn.Embedding(output_size, hidden_size)
        self.attention = BahdanauAttention(hidden_size)
        self.gru = nn.GRU(2 * hidden_size, hidden_size, batch_first=True)
        self.out = nn.Linear(hidden_size, output_size)
        self.dropout = nn.Dropout(dropout_p)

    def forward(self, encoder_outputs, encoder_hidden, target_tensor=None):
        batch_size = encoder_outputs.size(0)
        decoder_input = torch.empty(batch_size, 1, dtype=torch.long).fill_(SOS_token)
        decoder_hidden = encoder_hidden
        decoder_outputs = []
        attentions = []
        for i in range(MAX_LENGTH):
            decoder_output, decoder_hidden, attn_weights = self.forward_step(decoder_input, decoder_hidden, encoder_outputs)
            decoder_outputs.append(decoder_output)
            attentions.append(attn_weights)
            if target_tensor is not None:
                decoder_input = target_tensor[:, i].unsqueeze(1)
            else:
                _, topi = decoder_output.topk(1)
                decoder_input = topi.squeeze(-1).detach()
        decoder_outputs = torch.cat(decoder_outputs, dim=1)
        decoder_outputs = F.log_softmax(decoder_outputs, dim=-1)
        attentions = torch.cat(attentions, dim=1)
        return decoder_outputs, decoder_hidden, attentions

    def forward_step(self, input, hidden, encoder_outputs):
        embedded = self.dropout(self.embedding(input))
        query = hidden.permute(1, 0, 2)
        context, attn_weights = self.attention(query, encoder_outputs)
        input_gru = torch.cat((embedded, context), dim=2)
        output, hidden = self.gru(input_gru, hidden)
        output = self.out(output)
        return output, hidden, attn_weights


def det_init(m):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 0.37 + i).reshape(p.shape) * 0.3)


encoder = EncoderRNN(10, 6, dropout_p=0.0)
decoder = AttnDecoderRNN(6, 10, dropout_p=0.0)
det_init(encoder)
det_init(decoder)
inp = torch.tensor([[3, 4, 5, 1, 2, 2], [6, 7, 1, 2, 2, 2], [3, 8, 9, 4, 1, 2]])
lengths = (inp != PAD).sum(1)
print(lengths, lengths.dtype)
tgt = torch.tensor([[4, 5, 6, 1, 2, 2], [7, 8, 1, 2, 2, 2], [9, 4, 3, 8, 1, 2]])
enc_opt = torch.optim.Adam(encoder.parameters(), lr=0.01)
dec_opt = torch.optim.Adam(decoder.parameters(), lr=0.01)
criterion = nn.NLLLoss(ignore_index=PAD)
for epoch in range(4):
    enc_opt.zero_grad()
    dec_opt.zero_grad()
    encoder_outputs, encoder_hidden = encoder(inp, lengths)
    decoder_outputs, _, _ = decoder(encoder_outputs, encoder_hidden, tgt)
    loss = criterion(decoder_outputs.view(-1, decoder_outputs.size(-1)), tgt.view(-1))
    loss.backward()
    enc_opt.step()
    dec_opt.step()
    print(epoch, round(loss.item(), 6))
print(encoder_outputs.shape, encoder_hidden.shape, bool((encoder_outputs[1, 3:] == 0).all()))
with torch.no_grad():
    encoder_outputs, encoder_hidden = encoder(inp, lengths)
    decoder_outputs, decoder_hidden, attn = decoder(encoder_outputs, encoder_hidden)
    _, topi = decoder_outputs.topk(1)
    decoded_ids = topi.squeeze()
print(decoded_ids, attn.shape, attn.sum(-1).numpy().round(6))
