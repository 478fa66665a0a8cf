import type { Goal } from "@/lib/contracts/posts";

/**
 * The built-in model's own phrase banks for the languages besides English (lib/ai/local/phrases.ts is the
 * English one). Each is written for its language, not translated line by line: its own hooks, calls to
 * action and hashtags. `{t}` and the other fields are filled by the writer (local-language-writer.ts).
 */
export type LineArgs = { topic: string; brand: string; values?: string; audience?: string; link?: string };
type Line = (args: LineArgs) => string;

export type LanguageBank = {
  /** Joins the last two items of a list: "café, comercio justo y comunidad". */
  and: string;
  hooks: Record<Goal, Line[]>;
  audience: Line[];
  values: Line[];
  care: string[];
  media: { carousel: string; video: string };
  /** Calls to action by goal: for channels where links work, and for Instagram (link in bio). */
  cta: Record<Goal, { link: Line[]; plain: string[]; instagram: string[] }>;
  shortCta: Record<Goal, string>;
  /** Hashtags that fit the language and the goal. */
  tags: Record<Goal, string[]>;
  alt: { photo: Line; closeUp: Line; video: Line; closing: (closing: string, brand: string) => string };
};

const es: LanguageBank = {
  and: "y",
  hooks: {
    awareness: [
      ({ topic }) => `${topic}: esta es la historia.`,
      ({ topic }) => `Hablemos de algo que nos importa: ${topic}.`,
      ({ topic }) => `¿Alguna vez te has parado a pensar en esto? ${topic}.`,
    ],
    engagement: [
      ({ topic }) => `${topic}. ¿Tú qué opinas?`,
      ({ topic }) => `Queremos saber lo que piensas sobre esto: ${topic}.`,
      ({ topic }) => `${topic}. Cuéntanos tu primera impresión.`,
    ],
    traffic: [
      ({ topic }) => `${topic}: te lo contamos todo.`,
      ({ topic }) => `Todo lo que necesitas saber sobre esto: ${topic}.`,
      ({ topic }) => `${topic}. La historia completa te está esperando.`,
    ],
    leads: [
      ({ topic }) => `${topic}: ¿quieres ser de los primeros?`,
      ({ topic }) => `${topic}. Nos encantaría contarte más.`,
      ({ topic }) => `${topic}: así puedes formar parte.`,
    ],
    sales: [
      ({ topic }) => `${topic}: listo para ti.`,
      ({ topic }) => `${topic}. Te contamos por qué merece la pena.`,
      ({ topic }) => `${topic}. Esto es lo que te llevas.`,
    ],
    announcement: [
      ({ topic, brand }) => `Novedades de ${brand}: ${topic}.`,
      ({ topic }) => `Ya es oficial: ${topic}.`,
      ({ topic }) => `Llevábamos tiempo esperando para contarlo: ${topic}.`,
    ],
  },
  audience: [
    ({ audience }) => `Esto es para ${audience}.`,
    ({ audience }) => `Si eres parte de ${audience}, esto te va a gustar.`,
  ],
  values: [
    ({ brand, values }) => `En ${brand}, todo vuelve siempre a lo mismo: ${values}.`,
    ({ brand, values }) => `Detrás de todo están las cosas que más le importan a ${brand}: ${values}.`,
  ],
  care: [
    "Hemos cuidado cada detalle para que tú no tengas que hacerlo.",
    "Nos tomamos nuestro tiempo para hacerlo bien, y se nota.",
    "Pequeños detalles, una gran diferencia. Así trabajamos.",
  ],
  media: { carousel: "Desliza para ver más.", video: "Dale al play y míralo en acción." },
  cta: {
    awareness: {
      link: [],
      plain: ["Síguenos para más historias como esta.", "Compártelo con alguien a quien le vaya a gustar."],
      instagram: ["Guarda esta publicación para más tarde.", "Síguenos para más historias como esta."],
    },
    engagement: {
      link: [],
      plain: ["Déjanos tu opinión en los comentarios.", "Te leemos en los comentarios: respondemos a todos."],
      instagram: ["Etiqueta a alguien que tenga que ver esto.", "Déjanos tu opinión en los comentarios."],
    },
    traffic: {
      link: [
        ({ link }) => `Lee la historia completa: ${link}`,
        ({ link }) => `Todos los detalles aquí: ${link}`,
      ],
      plain: ["Lee la historia completa en nuestra web.", "Encuentra todos los detalles en nuestra web."],
      instagram: [
        "Toca el enlace de nuestra bio para leer más.",
        "Toda la historia, en el enlace de la bio.",
      ],
    },
    leads: {
      link: [({ link }) => `Apúntate aquí: ${link}`, ({ link }) => `Escríbenos: ${link}`],
      plain: ["Escríbenos y te contamos más.", "Únete a nuestra lista para enterarte antes que nadie."],
      instagram: [
        "Apúntate desde el enlace de nuestra bio.",
        "Escríbenos por mensaje directo y te lo contamos.",
      ],
    },
    sales: {
      link: [({ link }) => `Pide el tuyo aquí: ${link}`, ({ link }) => `Cómpralo ya: ${link}`],
      plain: ["Pide el tuyo hoy mismo.", "Consíguelo hoy en nuestra web."],
      instagram: ["Cómpralo desde el enlace de nuestra bio.", "Pide el tuyo: el enlace está en la bio."],
    },
    announcement: {
      link: [({ link }) => `Todos los detalles: ${link}`],
      plain: ["Apúntalo en tu calendario y corre la voz.", "Atentos: pronto, más detalles."],
      instagram: ["Apúntalo en tu calendario y corre la voz.", "Atentos: pronto, más detalles."],
    },
  },
  shortCta: {
    awareness: "Síguenos para más",
    engagement: "Cuéntanos en los comentarios",
    traffic: "Lee la historia completa",
    leads: "Apúntate hoy",
    sales: "Pide el tuyo hoy",
    announcement: "Corre la voz",
  },
  tags: {
    awareness: ["#Historias", "#HechoConCariño"],
    engagement: ["#TuOpinión", "#Comunidad"],
    traffic: ["#LeeMás", "#Novedades"],
    leads: ["#Apúntate", "#Novedades"],
    sales: ["#Compra", "#Novedad"],
    announcement: ["#Novedades", "#Anuncio"],
  },
  alt: {
    photo: ({ topic, brand }) => `Foto con el titular «${topic}» en los colores de ${brand}.`,
    closeUp: ({ topic }) => `Foto de cerca del detalle que hace especial esto: ${topic}.`,
    video: ({ topic, brand }) => `Vídeo corto sobre «${topic}», que termina con el logo de ${brand}.`,
    closing: (closing, brand) => `Diapositiva final con «${closing}» y el logo de ${brand}.`,
  },
};

const de: LanguageBank = {
  and: "und",
  hooks: {
    awareness: [
      ({ topic }) => `${topic}: Das ist die Geschichte dahinter.`,
      ({ topic }) => `Lassen Sie uns über etwas sprechen, das uns wichtig ist: ${topic}.`,
      ({ topic }) => `Schon einmal darüber nachgedacht? ${topic}.`,
    ],
    engagement: [
      ({ topic }) => `${topic}. Was denken Sie darüber?`,
      ({ topic }) => `Wir sind gespannt auf Ihre Meinung: ${topic}.`,
      ({ topic }) => `${topic}. Was ist Ihr erster Gedanke?`,
    ],
    traffic: [
      ({ topic }) => `${topic}: Hier ist die kurze Version.`,
      ({ topic }) => `Alles, was Sie darüber wissen müssen, an einem Ort: ${topic}.`,
      ({ topic }) => `${topic}. Die ganze Geschichte wartet auf Sie.`,
    ],
    leads: [
      ({ topic }) => `${topic}: Wollen Sie zu den Ersten gehören?`,
      ({ topic }) => `${topic}. Wir erzählen Ihnen gern mehr.`,
      ({ topic }) => `${topic}: So sind Sie dabei.`,
    ],
    sales: [
      ({ topic }) => `${topic}: Bereit, wenn Sie es sind.`,
      ({ topic }) => `${topic}. Darum lohnt es sich.`,
      ({ topic }) => `${topic}. Das bekommen Sie.`,
    ],
    announcement: [
      ({ topic, brand }) => `Neuigkeiten von ${brand}: ${topic}.`,
      ({ topic }) => `Es ist offiziell: ${topic}.`,
      ({ topic }) => `Darauf haben wir lange gewartet, und jetzt dürfen wir es sagen: ${topic}.`,
    ],
  },
  audience: [
    ({ audience }) => `Das ist für ${audience}.`,
    ({ audience }) => `Für ${audience} lohnt sich diese Minute ganz besonders.`,
  ],
  values: [
    ({ brand, values }) => `Bei ${brand} geht es am Ende immer um ${values}.`,
    ({ brand, values }) => `Dahinter steht, was ${brand} am wichtigsten ist: ${values}.`,
  ],
  care: [
    "Wir haben uns um jedes Detail gekümmert, damit Sie es nicht müssen.",
    "Wir haben uns die Zeit genommen, es richtig zu machen, und das merkt man.",
    "Kleine Details, großer Unterschied. So arbeiten wir.",
  ],
  media: {
    carousel: "Wischen Sie durch die Bilder für mehr.",
    video: "Drücken Sie auf Play und sehen Sie selbst.",
  },
  cta: {
    awareness: {
      link: [],
      plain: [
        "Folgen Sie uns für mehr Geschichten wie diese.",
        "Teilen Sie es mit jemandem, dem es gefällt.",
      ],
      instagram: [
        "Speichern Sie diesen Beitrag für später.",
        "Folgen Sie uns für mehr Geschichten wie diese.",
      ],
    },
    engagement: {
      link: [],
      plain: ["Schreiben Sie uns Ihre Meinung in die Kommentare.", "Wir lesen jeden Kommentar, versprochen."],
      instagram: [
        "Markieren Sie jemanden, der das sehen sollte.",
        "Schreiben Sie uns Ihre Meinung in die Kommentare.",
      ],
    },
    traffic: {
      link: [
        ({ link }) => `Die ganze Geschichte lesen: ${link}`,
        ({ link }) => `Alle Details finden Sie hier: ${link}`,
      ],
      plain: [
        "Die ganze Geschichte lesen Sie auf unserer Website.",
        "Alle Details finden Sie auf unserer Website.",
      ],
      instagram: [
        "Tippen Sie auf den Link in unserer Bio, um mehr zu lesen.",
        "Die ganze Geschichte gibt es über den Link in der Bio.",
      ],
    },
    leads: {
      link: [({ link }) => `Hier anmelden: ${link}`, ({ link }) => `Schreiben Sie uns: ${link}`],
      plain: [
        "Schreiben Sie uns, und wir erzählen Ihnen mehr.",
        "Tragen Sie sich ein und erfahren Sie es als Erste.",
      ],
      instagram: [
        "Melden Sie sich über den Link in unserer Bio an.",
        "Schicken Sie uns eine Nachricht, und wir erzählen Ihnen mehr.",
      ],
    },
    sales: {
      link: [({ link }) => `Hier bestellen: ${link}`, ({ link }) => `Jetzt kaufen: ${link}`],
      plain: ["Bestellen Sie noch heute.", "Jetzt auf unserer Website erhältlich."],
      instagram: [
        "Bestellen Sie über den Link in unserer Bio.",
        "Der Link zum Bestellen ist in unserer Bio.",
      ],
    },
    announcement: {
      link: [({ link }) => `Alle Details: ${link}`],
      plain: ["Merken Sie sich den Termin und sagen Sie es weiter.", "Bleiben Sie dran: Bald gibt es mehr."],
      instagram: [
        "Merken Sie sich den Termin und sagen Sie es weiter.",
        "Bleiben Sie dran: Bald gibt es mehr.",
      ],
    },
  },
  shortCta: {
    awareness: "Folgen Sie uns",
    engagement: "Sagen Sie es uns",
    traffic: "Jetzt weiterlesen",
    leads: "Jetzt anmelden",
    sales: "Jetzt bestellen",
    announcement: "Weitersagen",
  },
  tags: {
    awareness: ["#Geschichten", "#MitLiebeGemacht"],
    engagement: ["#IhreMeinung", "#Gemeinschaft"],
    traffic: ["#Weiterlesen", "#Neuigkeiten"],
    leads: ["#JetztAnmelden", "#Neuigkeiten"],
    sales: ["#JetztBestellen", "#Neuheit"],
    announcement: ["#Neuigkeiten", "#Ankündigung"],
  },
  alt: {
    photo: ({ topic, brand }) => `Foto mit der Überschrift „${topic}“ in den Farben von ${brand}.`,
    closeUp: ({ topic }) => `Nahaufnahme des Details, das es besonders macht: ${topic}.`,
    video: ({ topic, brand }) => `Kurzes Video über „${topic}“, am Ende das Logo von ${brand}.`,
    closing: (closing, brand) => `Letzte Folie mit „${closing}“ und dem Logo von ${brand}.`,
  },
};

const fr: LanguageBank = {
  and: "et",
  hooks: {
    awareness: [
      ({ topic }) => `${topic} : voici l'histoire.`,
      ({ topic }) => `Parlons d'une chose qui nous tient à cœur : ${topic}.`,
      ({ topic }) => `Vous êtes-vous déjà arrêté pour y penser ? ${topic}.`,
    ],
    engagement: [
      ({ topic }) => `${topic}. Qu'en pensez-vous ?`,
      ({ topic }) => `Nous aimerions avoir votre avis sur ce sujet : ${topic}.`,
      ({ topic }) => `${topic}. Dites-nous votre première impression.`,
    ],
    traffic: [
      ({ topic }) => `${topic} : voici l'essentiel.`,
      ({ topic }) => `Tout ce qu'il faut savoir, au même endroit : ${topic}.`,
      ({ topic }) => `${topic}. Toute l'histoire vous attend.`,
    ],
    leads: [
      ({ topic }) => `${topic} : vous voulez être parmi les premiers ?`,
      ({ topic }) => `${topic}. Nous serions ravis de vous en dire plus.`,
      ({ topic }) => `${topic} : voici comment en faire partie.`,
    ],
    sales: [
      ({ topic }) => `${topic} : prêt quand vous l'êtes.`,
      ({ topic }) => `${topic}. Voici pourquoi cela en vaut la peine.`,
      ({ topic }) => `${topic}. Voici ce que vous obtenez.`,
    ],
    announcement: [
      ({ topic, brand }) => `Des nouvelles de ${brand} : ${topic}.`,
      ({ topic }) => `C'est officiel : ${topic}.`,
      ({ topic }) => `Nous avions hâte de vous l'annoncer : ${topic}.`,
    ],
  },
  audience: [
    ({ audience }) => `Ceci est pour ${audience}.`,
    ({ audience }) => `Si vous faites partie de ${audience}, cela va vous plaire.`,
  ],
  values: [
    ({ brand, values }) => `Chez ${brand}, tout revient toujours à la même chose : ${values}.`,
    ({ brand, values }) => `Derrière tout cela, il y a ce qui compte le plus pour ${brand} : ${values}.`,
  ],
  care: [
    "Nous avons soigné chaque détail pour que vous n'ayez pas à le faire.",
    "Nous avons pris le temps de bien faire les choses, et cela se voit.",
    "De petits détails, une grande différence. C'est notre façon de travailler.",
  ],
  media: { carousel: "Faites défiler pour en voir plus.", video: "Lancez la vidéo pour le voir en action." },
  cta: {
    awareness: {
      link: [],
      plain: [
        "Suivez-nous pour d'autres histoires comme celle-ci.",
        "Partagez-le avec quelqu'un qui va l'aimer.",
      ],
      instagram: [
        "Enregistrez cette publication pour plus tard.",
        "Suivez-nous pour d'autres histoires comme celle-ci.",
      ],
    },
    engagement: {
      link: [],
      plain: [
        "Dites-nous ce que vous en pensez dans les commentaires.",
        "Nous lisons tous vos commentaires.",
      ],
      instagram: [
        "Identifiez quelqu'un qui doit voir ça.",
        "Dites-nous ce que vous en pensez dans les commentaires.",
      ],
    },
    traffic: {
      link: [
        ({ link }) => `Lisez toute l'histoire : ${link}`,
        ({ link }) => `Tous les détails ici : ${link}`,
      ],
      plain: ["Lisez toute l'histoire sur notre site.", "Retrouvez tous les détails sur notre site."],
      instagram: [
        "Touchez le lien dans notre bio pour en savoir plus.",
        "Toute l'histoire est dans le lien de notre bio.",
      ],
    },
    leads: {
      link: [({ link }) => `Inscrivez-vous ici : ${link}`, ({ link }) => `Contactez-nous : ${link}`],
      plain: ["Écrivez-nous et nous vous en dirons plus.", "Inscrivez-vous pour être les premiers informés."],
      instagram: [
        "Inscrivez-vous avec le lien dans notre bio.",
        "Envoyez-nous un message et nous vous en dirons plus.",
      ],
    },
    sales: {
      link: [
        ({ link }) => `Commandez le vôtre ici : ${link}`,
        ({ link }) => `Achetez-le maintenant : ${link}`,
      ],
      plain: ["Commandez le vôtre dès aujourd'hui.", "Disponible dès aujourd'hui sur notre site."],
      instagram: ["Commandez avec le lien dans notre bio.", "Le lien pour commander est dans notre bio."],
    },
    announcement: {
      link: [({ link }) => `Tous les détails : ${link}`],
      plain: ["Notez la date et faites passer le mot.", "Restez à l'écoute : plus de détails bientôt."],
      instagram: ["Notez la date et faites passer le mot.", "Restez à l'écoute : plus de détails bientôt."],
    },
  },
  shortCta: {
    awareness: "Suivez-nous",
    engagement: "Dites-le-nous en commentaire",
    traffic: "Lisez toute l'histoire",
    leads: "Inscrivez-vous",
    sales: "Commandez le vôtre",
    announcement: "Faites passer le mot",
  },
  tags: {
    awareness: ["#Histoires", "#FaitAvecSoin"],
    engagement: ["#VotreAvis", "#Communauté"],
    traffic: ["#EnSavoirPlus", "#Nouveautés"],
    leads: ["#Inscrivez", "#Nouveautés"],
    sales: ["#Commandez", "#Nouveauté"],
    announcement: ["#Nouveautés", "#Annonce"],
  },
  alt: {
    photo: ({ topic, brand }) => `Photo avec le titre « ${topic} » aux couleurs de ${brand}.`,
    closeUp: ({ topic }) => `Gros plan sur le détail qui fait la différence : ${topic}.`,
    video: ({ topic, brand }) => `Courte vidéo sur « ${topic} », qui se termine par le logo de ${brand}.`,
    closing: (closing, brand) => `Dernière diapositive avec « ${closing} » et le logo de ${brand}.`,
  },
};

const pt: LanguageBank = {
  and: "e",
  hooks: {
    awareness: [
      ({ topic }) => `${topic}: esta é a história.`,
      ({ topic }) => `Vamos falar de algo que é importante para nós: ${topic}.`,
      ({ topic }) => `Já parou para pensar nisso? ${topic}.`,
    ],
    engagement: [
      ({ topic }) => `${topic}. O que você acha?`,
      ({ topic }) => `Queremos saber a sua opinião sobre isso: ${topic}.`,
      ({ topic }) => `${topic}. Conte para nós a sua primeira impressão.`,
    ],
    traffic: [
      ({ topic }) => `${topic}: contamos tudo para você.`,
      ({ topic }) => `Tudo o que você precisa saber, num só lugar: ${topic}.`,
      ({ topic }) => `${topic}. A história completa está à sua espera.`,
    ],
    leads: [
      ({ topic }) => `${topic}: quer ser um dos primeiros?`,
      ({ topic }) => `${topic}. Adoraríamos contar mais para você.`,
      ({ topic }) => `${topic}: veja como fazer parte.`,
    ],
    sales: [
      ({ topic }) => `${topic}: pronto para você.`,
      ({ topic }) => `${topic}. Veja por que vale a pena.`,
      ({ topic }) => `${topic}. Isto é o que você leva.`,
    ],
    announcement: [
      ({ topic, brand }) => `Novidades da ${brand}: ${topic}.`,
      ({ topic }) => `Agora é oficial: ${topic}.`,
      ({ topic }) => `Estávamos ansiosos para contar isso: ${topic}.`,
    ],
  },
  audience: [
    ({ audience }) => `Isto é para ${audience}.`,
    ({ audience }) => `Se você faz parte de ${audience}, isto é para você.`,
  ],
  values: [
    ({ brand, values }) => `Na ${brand}, tudo sempre volta ao mesmo: ${values}.`,
    ({ brand, values }) => `Por trás de tudo estão as coisas que mais importam para a ${brand}: ${values}.`,
  ],
  care: [
    "Cuidamos de cada detalhe para que você não precise se preocupar.",
    "Levamos o nosso tempo para fazer isso bem, e dá para perceber.",
    "Pequenos detalhes, uma grande diferença. É assim que trabalhamos.",
  ],
  media: { carousel: "Deslize para ver mais.", video: "Dê o play para ver em ação." },
  cta: {
    awareness: {
      link: [],
      plain: ["Siga a gente para mais histórias como esta.", "Compartilhe com alguém que vai gostar."],
      instagram: ["Salve esta publicação para depois.", "Siga a gente para mais histórias como esta."],
    },
    engagement: {
      link: [],
      plain: ["Conte para nós o que você acha nos comentários.", "Lemos todos os comentários, prometemos."],
      instagram: ["Marque alguém que precisa ver isso.", "Conte para nós o que você acha nos comentários."],
    },
    traffic: {
      link: [
        ({ link }) => `Leia a história completa: ${link}`,
        ({ link }) => `Todos os detalhes aqui: ${link}`,
      ],
      plain: ["Leia a história completa no nosso site.", "Encontre todos os detalhes no nosso site."],
      instagram: ["Toque no link da nossa bio para ler mais.", "A história completa está no link da bio."],
    },
    leads: {
      link: [({ link }) => `Inscreva-se aqui: ${link}`, ({ link }) => `Fale com a gente: ${link}`],
      plain: ["Mande uma mensagem para saber mais.", "Entre na nossa lista para saber antes de todo mundo."],
      instagram: ["Inscreva-se pelo link da nossa bio.", "Mande uma mensagem direta e contamos tudo."],
    },
    sales: {
      link: [({ link }) => `Peça o seu aqui: ${link}`, ({ link }) => `Compre agora: ${link}`],
      plain: ["Peça o seu hoje mesmo.", "Já está disponível no nosso site."],
      instagram: ["Compre pelo link da nossa bio.", "Peça o seu: o link está na bio."],
    },
    announcement: {
      link: [({ link }) => `Todos os detalhes: ${link}`],
      plain: ["Anote na agenda e espalhe a notícia.", "Fique de olho: em breve, mais detalhes."],
      instagram: ["Anote na agenda e espalhe a notícia.", "Fique de olho: em breve, mais detalhes."],
    },
  },
  shortCta: {
    awareness: "Siga para mais",
    engagement: "Conte nos comentários",
    traffic: "Leia a história completa",
    leads: "Inscreva-se hoje",
    sales: "Peça o seu hoje",
    announcement: "Espalhe a notícia",
  },
  tags: {
    awareness: ["#Histórias", "#FeitoComCarinho"],
    engagement: ["#SuaOpinião", "#Comunidade"],
    traffic: ["#LeiaMais", "#Novidades"],
    leads: ["#Inscrevase", "#Novidades"],
    sales: ["#Compre", "#Novidade"],
    announcement: ["#Novidades", "#Anúncio"],
  },
  alt: {
    photo: ({ topic, brand }) => `Foto com o título “${topic}” nas cores da ${brand}.`,
    closeUp: ({ topic }) => `Foto de perto do detalhe que faz a diferença: ${topic}.`,
    video: ({ topic, brand }) => `Vídeo curto sobre “${topic}”, que termina com o logotipo da ${brand}.`,
    closing: (closing, brand) => `Slide final com “${closing}” e o logotipo da ${brand}.`,
  },
};

/** The languages besides English the built-in model writes, by primary subtag. */
export const LANGUAGE_BANKS: Record<string, LanguageBank> = { es, de, fr, pt };

/** Every language the built-in model writes (any regional variant of them: pt-BR, es-MX, de-CH…). */
export const LOCAL_MODEL_LANGUAGES = ["en", ...Object.keys(LANGUAGE_BANKS)];
