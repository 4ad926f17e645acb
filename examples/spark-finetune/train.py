"""LoRA fine-tune of a small Llama model with TRL's SFTTrainer."""
import torch
from datasets import load_dataset
from peft import LoraConfig
from transformers import AutoModelForCausalLM, AutoTokenizer
from trl import SFTConfig, SFTTrainer

MODEL = "meta-llama/Llama-3.2-3B-Instruct"


def main() -> None:
    tokenizer = AutoTokenizer.from_pretrained(MODEL)
    model = AutoModelForCausalLM.from_pretrained(MODEL, torch_dtype=torch.bfloat16)
    dataset = load_dataset("trl-lib/Capybara", split="train")
    peft_config = LoraConfig(r=16, lora_alpha=32, target_modules="all-linear", task_type="CAUSAL_LM")
    args = SFTConfig(
        output_dir="out/llama-3b-lora",
        per_device_train_batch_size=4,
        gradient_accumulation_steps=4,
        num_train_epochs=1,
        bf16=True,
        logging_steps=10,
    )
    trainer = SFTTrainer(model=model, args=args, train_dataset=dataset, peft_config=peft_config,
                         processing_class=tokenizer)
    trainer.train()
    trainer.save_model(args.output_dir)


if __name__ == "__main__":
    main()
