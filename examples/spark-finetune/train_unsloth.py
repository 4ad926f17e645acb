"""QLoRA fine-tune with Unsloth, asking for PyTorch SDPA attention on the Spark."""
from unsloth import FastLanguageModel

MAX_SEQ_LEN = 2048

model, tokenizer = FastLanguageModel.from_pretrained(
    "unsloth/Llama-3.2-3B-Instruct",
    max_seq_length=MAX_SEQ_LEN,
    load_in_4bit=True,
    attn_implementation="sdpa",  # dropped on the FastLlamaModel path (sparkcheck G2)
)
model = FastLanguageModel.get_peft_model(model, r=16, lora_alpha=16)
